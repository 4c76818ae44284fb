import { alertFacts } from './alert-facts.ts';
import type { AlertItem } from './alert-plan.ts';
import type { InboxEntry } from './inbox.ts';
import type { PairWords } from './transfer-pair.ts';
import type { Placement } from './tray-view.ts';

// An alert's new state in its inbox entry: apart from inbox.ts, which the first paint reads (the facts stay out of it).

/** The entry after an alert's new state: unread again (unless quiet), waiting to be shown. */
export function withAlert(
  entry: InboxEntry | undefined,
  item: AlertItem,
  words: { title: string; body: string; path: string; pair?: PairWords | null; tray?: Placement },
): InboxEntry {
  return {
    id: item.id,
    network: item.network,
    principal: item.principal,
    txId: item.activity?.txId ?? entry?.txId ?? null,
    phase: item.phase,
    title: words.title,
    body: words.body,
    path: words.path,
    ...(words.pair ? { pair: words.pair } : {}),
    firstAt: entry?.firstAt ?? item.at,
    at: item.at,
    // A quiet state claims no attention: the alert that tells it is the one to read.
    read: item.quiet === true,
    deliveries: entry?.deliveries ?? [],
    undelivered: true,
    facts: alertFacts(item),
    ...(item.quiet ? { quiet: true } : {}),
    ...(words.tray ? { tray: words.tray } : {}),
  };
}
