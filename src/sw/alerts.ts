/// <reference lib="webworker" />
import { isNotificationData, mergeSummary, type AlertRequest, type PageMessage } from '../domain/alert-text.ts';

declare const self: ServiceWorkerGlobalScope;

const ICON = '/icon-192.png';

/**
 * Shows an alert: as a toast in the focused window when the user prefers that (or has not allowed notifications),
 * else as a system notification; a summary still on screen grows rather than being replaced by a smaller one.
 */
export async function showAlert({ content, whileOpen }: AlertRequest): Promise<'notification' | 'toast' | 'inbox'> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const focused = windows.find((client) => client.focused && client.visibilityState === 'visible');
  const granted = Notification.permission === 'granted';
  if (focused && (whileOpen === 'toast' || !granted)) {
    focused.postMessage({ type: 'TOAST', content } satisfies PageMessage);
    return 'toast';
  }
  if (!granted) return 'inbox';
  let shown = content;
  if (content.data.summary) {
    const [onScreen] = await self.registration.getNotifications({ tag: content.tag });
    if (isNotificationData(onScreen?.data)) shown = mergeSummary(onScreen.data, content);
  }
  await self.registration.showNotification(shown.title, {
    body: shown.body,
    tag: shown.tag,
    data: shown.data,
    icon: ICON,
    badge: ICON,
    // A later state of the same transaction (pending → confirmed) is news: it alerts again.
    renotify: shown.renotify,
  } as NotificationOptions);
  return 'notification';
}

/** A click opens the address page at the transaction: in the focused (or any) window, or a new one if none. */
export async function openFromNotification(notification: Notification): Promise<void> {
  notification.close();
  const data = isNotificationData(notification.data) ? notification.data : null;
  const path = data && data.path.startsWith('/') && !data.path.startsWith('//') ? data.path : '/';
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
