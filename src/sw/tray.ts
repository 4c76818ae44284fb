/// <reference lib="webworker" />
import { isNotificationData, isSummaryTag, type NotificationContent } from '../domain/text/notification-content.ts';
import { leaveTray, placeOnTray, type OnTray, type TrayChange } from '../domain/alerts/tray.ts';
import { serially, SUMMARIES } from './queues.ts';

declare const self: ServiceWorkerGlobalScope;

const ICON = '/icon-192.png';

/** What this worker's notifications on screen tell (the system may hold others' data: those are left out). */
export async function trayNow(): Promise<OnTray[]> {
  const shown = await self.registration.getNotifications();
  return shown.flatMap((notification) =>
    isNotificationData(notification.data)
      ? [{ tag: notification.tag, title: notification.title, body: notification.body, data: notification.data }]
      : [],
  );
}

/** Puts one notification on the tray (domain/alerts/tray.ts decides how); resolves with what was shown, if anything. */
export async function putOnTray(
  content: NotificationContent,
  navigate?: string,
): Promise<{ shown: NotificationContent | null; changed: boolean }> {
  const change = placeOnTray(await trayNow(), content);
  if (content.data.summary) {
    await apply(change, navigate);
    return { shown: change.show, changed: change.quiet.length + change.close.length > 0 };
  }
  if (change.show) await display(change.show, navigate);
  // Sides of its transaction told on their own before it was known to be shared: the pair shown tells them now.
  const strays = new Set(change.close.filter((tag) => !isSummaryTag(tag)));
  if (strays.size > 0)
    for (const notification of await self.registration.getNotifications())
      if (strays.has(notification.tag)) notification.close();
  // Most alerts are told nowhere else: only then does the summaries' queue have to be waited for.
  if (change.quiet.length + change.close.length > 0) await leaveInTurn(content.data.ids, content.tag);
  return { shown: change.show, changed: false };
}

/**
 * The alerts told on their own now (a notification under `shownAs`, a toast) leave the summaries and pairs on
 * screen (see domain/alerts/tray.ts), read afresh in the summaries' queue: a summary growing meanwhile keeps its new lines
 * and never takes them back.
 */
export async function letGoOnTray(ids: readonly string[], shownAs = ''): Promise<void> {
  const change = leaveTray(await trayNow(), ids, shownAs);
  if (change.quiet.length + change.close.length > 0) await leaveInTurn(ids, shownAs);
}

const leaveInTurn = (ids: readonly string[], shownAs: string): Promise<void> =>
  serially(async () => apply(leaveTray(await trayNow(), ids, shownAs)), SUMMARIES);

async function apply(change: TrayChange, navigate?: string): Promise<void> {
  if (change.show) await display(change.show, navigate);
  for (const summary of change.quiet) await display(summary);
  if (change.close.length > 0) {
    const closing = new Set(change.close);
    for (const notification of await self.registration.getNotifications())
      if (closing.has(notification.tag)) notification.close();
  }
}

function display(content: NotificationContent, navigate?: string): Promise<void> {
  return self.registration.showNotification(content.title, {
    body: content.body,
    tag: content.tag,
    data: content.data,
    icon: ICON,
    badge: ICON,
    // A later state of the same transaction (pending → confirmed) is news: it alerts again; a retold line does not.
    renotify: content.renotify,
    silent: !content.renotify,
    ...(navigate ? { navigate } : {}),
  } as NotificationOptions);
}
