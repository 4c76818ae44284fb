import type { AlertPhase } from './alert-ledger.ts';
import type { InboxEntry } from './inbox.ts';
import { inboxState, type InboxState } from './inbox-state.ts';
import { minedAgainAfterReorg } from './reorg-history.ts';
import { pairUp, type PairedEntries } from './inbox-pairs.ts';
import { pairPrefix, pairWords } from './transfer-pair.ts';
import { NETWORK_LABEL, type Network } from '../network.ts';
import { bodyUnderSubject, followUpNote } from '../text/alert-text.ts';
import type { Naming } from '../text/effect-text.ts';
import { relativeTime, type TimeFormat } from '../text/time-text.ts';

/** One row of the inbox list: one alert, or both sides of a transfer between two watched addresses. */
export interface InboxRow {
  /** The alert's id; for a pair, `pair:<network>:<txId>`. */
  readonly id: string;
  /** The alerts it stands for: marking it read, deleting or swiping it acts on all of them. */
  readonly ids: readonly string[];
  readonly network: Network;
  /** The address it is listed under (see inboxRows). */
  readonly principal: string;
  /** Every address it is about: an address filter finds a pair under either side. */
  readonly principals: readonly string[];
  /**
   * The address it tells about as the user knows it now (label, else BNS name, else the short address), for the
   * row to name it; empty for a pair, whose words name both sides.
   */
  readonly who: string;
  readonly phase: AlertPhase;
  /** Its state chip (Pending, Confirmed, Failed, Dropped, Reverted…), or null for news of no transaction. */
  readonly state: InboxState | null;
  /**
   * Mined again after a re-org took it back (the user was told "Reverted"): its row keeps a quiet mark of it, where
   * its chip says only where it stands now.
   */
  readonly minedAgain: boolean;
  readonly title: string;
  /** Its words below its title (a single alert's stored words without their first line, which names the address). */
  readonly body: string;
  readonly path: string;
  readonly at: number;
  /** Read once every alert it stands for is. */
  readonly read: boolean;
}

/**
 * The inbox as rows, newest first. A transaction between two watched addresses is one row ("Alice → Walker 4.30
 * STX", "Alice → demo-vault.withdraw — pending") worded with the labels the user has now, in the state of the side
 * told last, its follow-ups (mined, reverted, dropped) changing that one row. It is listed under the page its
 * notification and its row open: a transfer's recipient (a deposit is what a watched address is mostly watched for,
 * and the sender is the row's first word already), a call's caller; or under `home` when that is the other side: the
 * address the list is filtered by, whose page it then opens.
 */
export function inboxRows(entries: readonly InboxEntry[], naming: Naming, home?: string): InboxRow[] {
  return pairUp(entries).flatMap((item) =>
    'readFrom' in item ? pairRow(item, naming, home) : [singleRow(item, naming)],
  );
}

/**
 * A row's name for a screen reader, the address first as in a notification: "Unread: Alice: Received 4.30 STX, 3 min
 * ago" (a pair's words name both sides), with its network where the row marks it ("Alice Testnet: …"). Its further
 * words are its description.
 */
export function inboxRowName(
  row: InboxRow,
  nowMs: number,
  { markNetwork = false, format = {} }: { markNetwork?: boolean; format?: TimeFormat } = {},
): string {
  const who = [row.who, markNetwork ? NETWORK_LABEL[row.network] : ''].filter(Boolean).join(' ');
  return `${row.read ? '' : 'Unread: '}${who ? `${who}: ` : ''}${row.title}, ${relativeTime(row.at, nowMs, format)}`;
}

const singleRow = (entry: InboxEntry, naming: Naming): InboxRow => ({
  id: entry.id,
  ids: [entry.id],
  network: entry.network,
  principal: entry.principal,
  principals: [entry.principal],
  who: naming.party(entry.principal),
  phase: entry.phase,
  state: inboxState({
    ...entry,
    statusDetail: entry.facts?.activity?.statusDetail,
    signed: entry.facts?.activity?.sender === entry.principal,
  }),
  minedAgain: minedAgainAfterReorg(entry.phase, [entry]),
  title: entry.title,
  body: bodyUnderSubject(entry.body),
  path: entry.path,
  at: entry.at,
  read: entry.read,
});

function pairRow({ from, to, readFrom: side, activity }: PairedEntries, naming: Naming, home?: string): InboxRow[] {
  const latest = from.at > to.at ? from : to;
  const phase = latest.phase;
  const item = {
    id: side.id,
    network: side.network,
    principal: side.principal,
    subject: activity.txId,
    // Worded as pending or mined; a later state is said before those words.
    phase: phase === 'pending' ? ('pending' as const) : ('confirmed' as const),
    activity,
    amount: null,
    at: latest.at,
    catchUp: false,
    // Back in the mempool after a revert: the row keeps saying so until the transaction is mined again, whichever side
    // came last (a side never told mined, its address added since, is back in the mempool all the same).
    ...(phase === 'pending' && [from, to].some((side) => side.phase === 'pending' && side.facts?.afterRevert)
      ? { afterRevert: 'told' as const }
      : {}),
  };
  const words = pairWords(item, naming, () => true, { title: latest.title, body: latest.body });
  if (!words) return [from, to].sort((a, b) => b.at - a.at).map((entry) => singleRow(entry, naming));
  // Listed under and opening the page its notification opens: a transfer's recipient, a call's caller. Filtered by
  // the other side, it is that side's row: listed under it, opening its page at the transaction.
  const [main, other] = words.to === from.principal ? [from, to] : [to, from];
  const listed = home === other.principal ? other : main;
  // A mined transfer that later failed, reverted or dropped (or was skipped) is told as that, before the pair's words.
  const signer = activity.sender ?? '';
  const signed = signer === from.principal || signer === to.principal;
  const prefix = pairPrefix(phase, activity, false, signed);
  const note = followUpNote(phase, activity);
  // A transaction no block holds (dropped, or reverted and not mined again) paid no fee.
  const lines = words.body.split('\n').filter((line) => line && !(note && line.startsWith('Fee ')));
  return [
    {
      id: `pair:${to.network}:${activity.txId}`,
      ids: [from.id, to.id],
      network: to.network,
      principal: listed.principal,
      principals: [from.principal, to.principal],
      who: '',
      phase,
      state: inboxState({ phase, txId: activity.txId, statusDetail: activity.statusDetail, signed }),
      // Either side told reverted: the pair's one row stood for both.
      minedAgain: minedAgainAfterReorg(phase, [from, to]),
      title: prefix ? `${prefix}: ${words.title}` : words.title,
      body: [...lines, ...(note ? [note] : [])].join('\n'),
      path: listed.path,
      at: latest.at,
      read: from.read && to.read,
    },
  ];
}
