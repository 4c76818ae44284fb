/// <reference lib="webworker" />
import { stateShown } from '../domain/relay/relay-inbox.ts';
import { tell, type OnTray, type Telling } from '../domain/alerts/tray-view.ts';
import { isNotificationData, type NotificationContent, type PageMessage } from '../domain/text/notification-content.ts';
import { serially } from './queues.ts';
import { readInbox } from './records.ts';

declare const self: ServiceWorkerGlobalScope;

const ICON = '/icon-192.png';

/** The state of each alert this worker showed in its lifetime (the page records it a moment later): shown once. */
const shownHere = new Map<string, string>();

/**
 * Tells the latest states of these alerts, stored in the inbox with where each goes on the tray, and makes the tray
 * match (domain/alerts/tray-view.ts decides everything): toasts to the focused window, notifications shown or
 * replaced by tag, closed. One at a time: each reads the tray the one before left. `navigate`: the URL a declarative
 * push's notification opens (WebKit wants one on a notification shown in place of its proposed one).
 */
export function tellOnTray(ids: readonly string[], whileOpen: 'toast' | 'system', navigate?: string): Promise<Telling> {
  return serially(async () => {
    const inbox = await readInbox();
    const granted = Notification.permission === 'granted';
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const focused = windows.find((client) => client.focused && client.visibilityState === 'visible');
    const telling = tell(
      inbox,
      ids,
      granted ? await trayNow() : [],
      { toast: Boolean(focused) && (whileOpen === 'toast' || !granted), granted },
      (entry) => stateShown(entry, entry.phase) || shownHere.get(entry.id) === entry.phase,
    );
    for (const content of telling.toasts) focused?.postMessage({ type: 'TOAST', content } satisfies PageMessage);
    for (const content of telling.show) await display(content, navigate);
    if (telling.close.length > 0) {
      const closing = new Set(telling.close);
      for (const notification of await self.registration.getNotifications())
        if (closing.has(notification.tag)) notification.close();
    }
    for (const [id, via] of telling.via) {
      const phase = inbox.get(id)?.phase;
      if (via !== 'inbox' && phase) shownHere.set(id, phase);
    }
    return telling;
  }, TRAY);
}

/** Every change to the tray goes through this queue, one at a time. */
export const TRAY = 'tray';

/** What this worker's notifications on screen tell (the system may hold others' data: those are left out). */
async function trayNow(): Promise<OnTray[]> {
  const shown = await self.registration.getNotifications();
  return shown.flatMap((notification) =>
    isNotificationData(notification.data)
      ? [{ tag: notification.tag, title: notification.title, body: notification.body, data: notification.data }]
      : [],
  );
}

function display(content: NotificationContent, navigate?: string): Promise<void> {
  return self.registration.showNotification(content.title, {
    body: content.body,
    tag: content.tag,
    data: content.data,
    icon: ICON,
    badge: ICON,
    // A state the tray did not show a moment before is news: it alerts; a changed line or another side does not.
    renotify: content.renotify,
    silent: !content.renotify,
    ...(navigate ? { navigate } : {}),
  } as NotificationOptions);
}
