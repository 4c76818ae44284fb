import type { NotificationContent } from '../../../src/domain/alert-text.ts';
import type { InboxEntry } from '../../../src/domain/inbox.ts';

/**
 * What the notification tray must tell, judged from what is on it (tag → notification) and the inbox: every
 * alert's present state is told by a notification that carries it, and a summary's title counts exactly the
 * lines its body lists (its first lines and "and N more").
 */
export function trayProblems(
  screen: ReadonlyMap<string, NotificationContent>,
  entries: readonly InboxEntry[],
  who: (entry: InboxEntry) => string,
): string[] {
  const problems: string[] = [];
  const onScreen = [...screen.values()];
  for (const entry of entries) {
    const carriers = onScreen.filter((content) => content.data.ids.includes(entry.id));
    if (carriers.length === 0) continue;
    if (!carriers.some((content) => content.phases?.[entry.id] === entry.phase))
      problems.push(
        `${who(entry)}: the inbox says "${entry.phase}", the tray only ${carriers
          .map((content) => `"${content.title}" (${content.phases?.[entry.id] ?? 'no state'})`)
          .join(', ')}`,
      );
  }
  for (const content of onScreen) {
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

/**
 * A transfer between two watched addresses told as one ("Alice → Walker 4.30 STX"): the sender's label, the
 * recipient's, and the amount the recipient's own alert (checked against the ledger) says it received.
 */
export function pairProblems(
  pair: NotificationContent,
  sender: InboxEntry,
  entries: readonly InboxEntry[],
  labels: ReadonlyMap<string, string>,
  who: string,
): string[] {
  const recipient = entries.find((entry) => entry.id === pair.data.ids[1]);
  if (pair.data.ids[0] !== sender.id || !recipient || recipient.txId !== sender.txId)
    return [`${who}: a pair notification carries ${pair.data.ids.join(', ')}`];
  const amount = /^(?:Received|Receiving) (.+?)( · fee [\d.,]+ STX)?( — pending)?$/.exec(recipient.title)?.[1];
  const want = `${labels.get(sender.principal)} → ${labels.get(recipient.principal)} ${amount}${sender.phase === 'pending' ? ' — pending' : ''}`;
  return pair.title === want ? [] : [`${who}: its pair notification says "${pair.title}", expected "${want}"`];
}
