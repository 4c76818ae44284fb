import { OVERALL_TAG, plainTitle, type NotificationContent } from '../../../src/domain/text/notification-content.ts';
import type { InboxEntry } from '../../../src/domain/alerts/inbox.ts';
import { tell } from '../../../src/domain/alerts/tray-tell.ts';
import { shownVia } from '../../../src/domain/relay/relay-inbox.ts';
import type { Deliver } from '../../../src/notify/deliveries.ts';

/**
 * The system's notification tray (tag → what it shows), told as the service worker tells it (sw/tray.ts): the
 * domain's `tell` over the inbox as stored, its changes applied to the screen. `noise`: told of each sound that
 * brought nothing new to the screen (an alert state it already showed), judged here from the states' own ids.
 */
export function memoryTray(
  inbox: { list(): readonly InboxEntry[] },
  noise?: (problem: string) => void,
  /** The system's tray (tag → notification): shared by the tabs of one browser profile, left by a tab that closed. */
  screen = new Map<string, NotificationContent>(),
): { screen: Map<string, NotificationContent>; shown: NotificationContent[]; deliver: Deliver } {
  const shown: NotificationContent[] = [];
  const deliver: Deliver = (told) => {
    const stored = new Map(inbox.list().map((entry) => [entry.id, entry]));
    const telling = tell(
      stored,
      told.map(({ id }) => id),
      [...screen.values()],
      { toast: false, granted: true },
      (entry) => shownVia(entry, entry.phase),
    );
    const before = new Set([...screen.values()].flatMap(txStates));
    for (const content of telling.show) {
      // A sound only when a notification gains something: a transaction, or a state of one, not on screen a moment
      // before (another side of a transaction in the state already shown brings nothing new to hear).
      const states = txStates(content);
      if (noise && content.renotify && states.length > 0 && states.every((state) => before.has(state)))
        noise(`"${content.title}" rang with nothing new on screen (${states.join(', ')})`);
      screen.set(content.tag, content);
      shown.push(content);
    }
    for (const tag of telling.close) screen.delete(tag);
    return Promise.resolve(telling.via);
  };
  return { screen, shown, deliver };
}

/** A platform that takes every alert handed to it as shown on its own (the tray is not what a test looks at). */
export const allShown: Deliver = (told) => Promise.resolve(new Map(told.map(({ id }) => [id, 'notification'])));

/**
 * The transaction states a notification tells: `network:txId|phase` of each alert (`network:principal:txId`); an
 * alert of no transaction (staking) by its own id and a mark that it is never the same news twice. A side back in the
 * mempool after a re-org, in the words "Reverted — back in the mempool", tells the transaction reverted as well as
 * pending: beside another side plain pending, its revert is still a state the tray did not show.
 */
let staking = 0;
const txStates = (content: NotificationContent): string[] =>
  Object.entries(content.phases ?? {}).flatMap(([id, phase]) => {
    const [network, , subject = ''] = id.split(':');
    if (!subject.startsWith('0x')) return [`${id}|${phase}|${++staking}`];
    const state = `${network}:${subject}|${phase}`;
    const words = wordsOf(content, id);
    return phase === 'pending' && words?.startsWith('Reverted — back in the mempool: ')
      ? [state, `${network}:${subject}|reverted`]
      : [state];
  });

/** The words a notification says of one alert: its side's under a pair, its line in a summary, or its title alone. */
const wordsOf = ({ title, data }: NotificationContent, id: string): string | undefined =>
  data.pair?.sides[id]?.title ??
  data.summary?.lines?.find((line) => line.id === id)?.title ??
  (data.ids.length === 1 && data.ids[0] === id ? plainTitle(title) : undefined);

/**
 * What the notification tray must tell, judged from what is on it (tag → notification) and the inbox: an alert on
 * screen is on one notification, which tells its state now (never a "pending" the chain has moved past), and a
 * summary's title counts exactly the transactions its body lists (its first lines and "and N more"; the sides of one
 * are one), however often it was merged with the one on screen or retold; a summary of one is that alert's words; the
 * overall summary's lines name their addresses.
 */
export function trayProblems(
  screen: ReadonlyMap<string, NotificationContent>,
  entries: readonly InboxEntry[],
  who: (entry: InboxEntry) => string,
  /** What the user calls an address, where the caller knows: the overall summary's lines must name it. */
  nameOf?: (principal: string) => string,
): string[] {
  const problems: string[] = [];
  const onScreen = [...screen.values()];
  for (const entry of entries) {
    const carriers = onScreen.filter((content) => content.data.ids.includes(entry.id));
    const told = carriers.map((content) => `"${content.title}" (${content.phases?.[entry.id] ?? 'no state'})`);
    if (carriers.length > 1) problems.push(`${who(entry)}: on ${carriers.length} notifications at once: ${told}`);
    const [carrier] = carriers;
    const phase = carrier?.phases?.[entry.id];
    if (phase === 'pending' && entry.phase !== 'pending')
      problems.push(`${who(entry)}: the inbox says "${entry.phase}", the tray still "pending": ${told}`);
    else if (phase !== undefined && phase !== entry.phase)
      problems.push(`${who(entry)}: the inbox says "${entry.phase}", the tray ${told}`);
  }
  for (const content of onScreen) {
    if (!content.data.summary) continue;
    const kept = content.data.summary.lines ?? [];
    // A summary counts transactions: the sides of one (a transfer between two watched addresses) are one, told on one
    // line, in the order its newest side came.
    const transactionOf = (id: string) => {
      const [network, , subject = ''] = id.split(':');
      return subject.startsWith('0x') ? `${network}:${subject}` : id;
    };
    const carried = new Set(content.data.ids.map(transactionOf)).size;
    const sidesOf = new Map<string, string[]>();
    for (const line of kept)
      sidesOf.set(transactionOf(line.id), [...(sidesOf.get(transactionOf(line.id)) ?? []), line.id]);
    const listedSides = [...sidesOf.values()];
    // A summary of one transaction tells it in its alert's words, its address below, never "1 new transaction on 1
    // address"; one with two watched sides, in its pair's words as its own notification would.
    if (carried === 1) {
      const entry = entries.find((candidate) => candidate.id === kept[0]?.id);
      const pairs = content.data.ids.length > 1 ? entries.filter((e) => content.data.ids.includes(e.id) && e.pair) : [];
      const inPairWords = pairs.some(
        (side) => plainTitle(content.title) === side.pair!.title && content.body === side.pair!.body,
      );
      if (
        !inPairWords &&
        (plainTitle(content.title) !== kept[0]?.title ||
          (entry && nameOf && content.body.split('\n')[0] !== nameOf(entry.principal)))
      )
        problems.push(`a summary of one says "${content.title}" / "${content.body}", not its alert's words`);
      continue;
    }
    // Each line of the overall summary names the address of each side it tells, each side first in its part.
    if (content.tag === OVERALL_TAG && nameOf)
      content.body.split('\n').forEach((text, index) => {
        if (/^and \d+ more$/.test(text)) return;
        const parts = text.split('; ');
        const sides = listedSides[index] ?? [];
        sides.forEach((id, side) => {
          const entry = entries.find((candidate) => candidate.id === id);
          if (entry && !parts[side]?.startsWith(`${nameOf(entry.principal)}: `))
            problems.push(`the overall summary's line "${text}" does not name the address of each side first`);
        });
      });
    const counted = Number(
      /(\d[\d,]*) new (?:transactions?|alerts?)/.exec(content.title)?.[1]?.replace(/,/g, '') ?? NaN,
    );
    const lines = content.body.split('\n');
    const more = /^and (\d+) more$/.exec(lines.at(-1) ?? '');
    const listed = more ? lines.length - 1 + Number(more[1]) : lines.length;
    if (counted !== listed || counted !== carried)
      problems.push(
        `summary "${content.title}" counts ${counted}, its body lists ${listed}, it carries ${carried} transactions (${content.data.ids.length} alerts): ${JSON.stringify(content.body)}`,
      );
  }
  return problems;
}

/**
 * A transaction between watched addresses told as one: the alerts of one transaction on screen, one per address
 * that was watched (and caught up) when it was sent, are all on one notification, whatever the state each tells. A
 * revert or a drop is left out (and a side back in the mempool after a revert, told as it): it is always told on its own, joining its other sides only where they are told on
 * their own too (a side back in the mempool after a re-org may be in a summary meanwhile).
 */
export function sharedProblems(
  screen: ReadonlyMap<string, NotificationContent>,
  entries: readonly InboxEntry[],
  watchedWhenSent: (txId: string, principal: string) => boolean,
): string[] {
  const byTx = new Map<string, InboxEntry[]>();
  for (const entry of entries) {
    if (!entry.txId || entry.quiet || entry.phase === 'reverted' || entry.phase === 'dropped') continue;
    if (entry.facts?.afterRevert) continue;
    if (!watchedWhenSent(entry.txId, entry.principal)) continue;
    byTx.set(entry.txId, [...(byTx.get(entry.txId) ?? []), entry]);
  }
  const problems: string[] = [];
  const onScreen = [...screen.values()];
  for (const [txId, sides] of byTx) {
    if (sides.length < 2) continue;
    const carriers = onScreen.filter((content) => sides.some((side) => content.data.ids.includes(side.id)));
    if (carriers.length > 1)
      problems.push(
        `${txId.slice(0, 10)} between ${sides.length} watched addresses is on ${carriers.length} notifications: ${carriers.map((content) => `"${content.title}"`).join(', ')} (told: ${sides.map((side) => side.deliveries.map((d) => `${d.phase} via ${d.via}`).join(' then ')).join('; ')})`,
      );
  }
  return problems;
}
