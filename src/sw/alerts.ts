/// <reference lib="webworker" />
import { sameOriginPath } from '../domain/alerts/alert-path.ts';
import {
  isNotificationData,
  itemTag,
  type NotificationContent,
  type PageMessage,
} from '../domain/text/notification-content.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';

declare const self: ServiceWorkerGlobalScope;

const ICON = '/icon-192.png';

/**
 * A clicked notification leaves the tray, with one shown again under its tag while the click was on its way (the
 * other side of a transfer between two watched addresses): run in its alert's queue, after any state being placed.
 */
export async function closeClicked(notification: Notification): Promise<void> {
  notification.close();
  for (const shown of await self.registration.getNotifications({ tag: notification.tag })) shown.close();
}

/** A click opens the address page at the transaction: in the focused (or any) window, or a new one if none. */
export async function openFromNotification(notification: Notification): Promise<void> {
  const data = isNotificationData(notification.data) ? notification.data : null;
  // Only a path that stays on this origin: the worker's own notifications carry one built on the device, and this is
  // the second line behind that rule (`/\evil.example` resolves to another host).
  const path = (data && sameOriginPath(data.path, self.location.origin)) ?? '/';
  const ids = data?.ids ?? [];
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const target = windows.find((client) => client.focused) ?? windows[0];
  if (target) {
    // Moved first: the browser may refuse to bring it forward, and that must not lose the way to the transaction.
    target.postMessage({ type: 'OPEN', path, ids } satisfies PageMessage);
    await target.focus().catch(() => undefined);
    return;
  }
  await self.clients.openWindow(path);
}

/**
 * A notification shown without sound or vibration under its tag, in place of the one a declarative push proposed
 * (Safari shows that one, in the relay's words, unless the worker shows one): for a state already shown, and for one
 * the open app tells as a toast, so that the system shows exactly one notification, in the user's words.
 */
export async function showQuietly(
  content: Pick<NotificationContent, 'title' | 'body' | 'tag' | 'data'>,
  navigate: string,
): Promise<void> {
  if (Notification.permission !== 'granted') return;
  await self.registration.showNotification(content.title, {
    body: content.body,
    tag: content.tag,
    data: content.data,
    icon: ICON,
    badge: ICON,
    silent: true,
    navigate,
  } as NotificationOptions);
}

/**
 * A state already shown, shown again quietly (see showQuietly): the notification on screen that tells it (a pair of
 * sides, a summary), else the entry's own words under its tag.
 */
export async function showAgainQuietly(entry: InboxEntry, navigate: string): Promise<void> {
  const shown = (await self.registration.getNotifications()).find(
    (notification) => isNotificationData(notification.data) && notification.data.ids.includes(entry.id),
  );
  await showQuietly(
    shown && isNotificationData(shown.data)
      ? { title: shown.title, body: shown.body, tag: shown.tag, data: shown.data }
      : {
          title: entry.title,
          body: entry.body,
          tag: itemTag(entry.id),
          data: { ids: [entry.id], path: entry.path, summary: null },
        },
    navigate,
  );
}
