import type { NotificationContent } from '../../../src/domain/text/alert-text.ts';

/**
 * What the notification tray must tell, judged from what is on it (tag → notification): a summary's title counts
 * exactly the alerts its body lists (its first lines and "and N more"), however often it was merged with the one
 * on screen.
 */
export function trayProblems(screen: ReadonlyMap<string, NotificationContent>): string[] {
  const problems: string[] = [];
  for (const content of screen.values()) {
    if (!content.data.summary) continue;
    const counted = Number(/(\d[\d,]*) new transactions?/.exec(content.title)?.[1]?.replace(/,/g, '') ?? NaN);
    const lines = content.body.split('\n');
    const more = /^and (\d+) more$/.exec(lines.at(-1) ?? '');
    const listed = more ? lines.length - 1 + Number(more[1]) : lines.length;
    if (counted !== listed || counted !== content.data.ids.length)
      problems.push(
        `summary "${content.title}" counts ${counted}, its body lists ${listed}, it carries ${content.data.ids.length}: ${JSON.stringify(content.body)}`,
      );
  }
  return problems;
}
