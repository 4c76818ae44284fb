/// <reference lib="webworker" />
import { shownVia } from '../domain/relay/relay-inbox.ts';
import type { DeliveryVia } from '../domain/alerts/inbox.ts';
import { tell, type Telling } from '../domain/alerts/tray-tell.ts';
import { isNotificationData, type NotificationContent, type PageMessage } from '../domain/text/notification-content.ts';
import { serially } from './queues.ts';
import { readInboxEntries } from './records.ts';

declare const self: ServiceWorkerGlobalScope;

const ICON = '/icon-192.png';

/** The state of each alert this worker showed in its lifetime, and how (the page records it a moment later). */
const shownHere = new Map<string, { phase: string; via: DeliveryVia }>();

/**
 * Tells the latest states of these alerts, stored in the inbox with where each goes on the tray, and makes the tray
 * match (domain/alerts/tray-view.ts decides everything): toasts to the focused window, notifications shown or
 * replaced by tag, closed. One at a time: each reads the tray the one before left. `navigate`: the URL a declarative
 * push's notification opens (WebKit wants one on a notification shown in place of its proposed one).
 */
export function tellOnTray(ids: readonly string[], whileOpen: 'toast' | 'system', navigate?: string): Promise<Telling> {
  return serially(async () => {
    const granted = Notification.permission === 'granted';
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const focused = windows.find((client) => client.focused && client.visibilityState === 'visible');
    const notifications = granted ? await self.registration.getNotifications() : [];
    const screen = notifications.flatMap((notification) =>
      isNotificationData(notification.data)
        ? [{ tag: notification.tag, title: notification.title, body: notification.body, data: notification.data }]
        : [],
    );
    // What telling reads: the alerts asked about, and those on screen.
    const inbox = await readInboxEntries([...ids, ...screen.flatMap(({ data }) => data.ids)]);
    const telling = tell(
      inbox,
      ids,
      screen,
      { toast: Boolean(focused) && (whileOpen === 'toast' || !granted), granted },
      (entry) => {
        const here = shownHere.get(entry.id);
        return shownVia(entry, entry.phase) ?? (here?.phase === entry.phase ? here.via : null);
      },
    );
    for (const content of telling.toasts) focused?.postMessage({ type: 'TOAST', content } satisfies PageMessage);
    // A declarative push's URL goes only with the notification of what it pushed.
    for (const content of telling.show)
      await display(content, content.data.ids.some((id) => ids.includes(id)) ? navigate : undefined);
    const closing = new Set(telling.close);
    for (const notification of notifications) if (closing.has(notification.tag)) notification.close();
    for (const [id, via] of telling.via) {
      const phase = inbox.get(id)?.phase;
      if (via !== 'inbox' && phase) shownHere.set(id, { phase, via });
    }
    return telling;
  }, TRAY);
}

/** Every change to the tray goes through this queue, one at a time. */
export const TRAY = 'tray';

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
