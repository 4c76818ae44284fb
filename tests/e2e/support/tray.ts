import type { Page } from 'playwright-core';
import type { NotificationContent } from '../../../src/domain/text/notification-content.ts';

/**
 * The app's notifications on screen now, by tag, as the service worker left them: with the state each summary's
 * line tells (`phases`), which the tray checks of tests/monitor/truth/tray.ts judge.
 */
export async function trayOnScreen(page: Page): Promise<Map<string, NotificationContent>> {
  const shown: NotificationContent[] = await page.evaluate(`navigator.serviceWorker.ready
    .then((registration) => registration.getNotifications())
    .then((list) => list.filter((n) => Array.isArray(n.data?.ids)).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      renotify: false,
      data: n.data,
      phases: n.data.summary?.lines ? Object.fromEntries(n.data.summary.lines.map((line) => [line.id, line.phase])) : undefined,
    })))`);
  return new Map(shown.map((content) => [content.tag, content]));
}
