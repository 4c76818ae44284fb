import type { AlertPhase } from './alert-ledger.ts';
import type { AlertItem } from './alert-plan.ts';
import { formatStx } from '../amount.ts';
import { amountText, viaWords, type Naming } from '../text/effect-text.ts';
import { txEffect } from '../state/tx-effect.ts';

/**
 * A transfer between two watched addresses is one event for the person watching both: "Alice → Walker 4.30 STX",
 * not a sent and a received alert side by side. Each side stays its own alert (its inbox entry, its address's page);
 * what is shown at once is one notification, under one tag per transaction, whichever side comes first (tray.ts).
 */
export interface PairWords {
  /** `network:txId`: the same from either side. */
  readonly key: string;
  /** The sending address. */
  readonly from: string;
  /** The receiving address: a click opens its page at the transaction. */
  readonly to: string;
  readonly title: string;
  readonly body: string;
  /** Each side told, with its state and its own words (shown again should the other side leave). */
  readonly sides: Readonly<Record<string, PairSide>>;
}

export interface PairSide {
  readonly phase: AlertPhase;
  readonly title: string;
  readonly body: string;
}

/** A revert or a drop corrects each address on its own; a failure moved nothing. */
const PAIRED = new Set<AlertPhase>(['pending', 'confirmed']);

export const pairTag = (key: string): string => `tx:${key}`;

/**
 * The one other party of a plain transfer in a state told as a pair (pending, confirmed): the side it may pair with
 * when that address is watched too; null for anything else.
 */
export function pairCounterparty(item: AlertItem): string | null {
  const activity = item.activity;
  if (!activity || !PAIRED.has(item.phase)) return null;
  const [moved, ...others] = txEffect(activity, item.principal).effects;
  if (!moved || others.length > 0 || moved.how !== 'transfer' || moved.counterparties.length !== 1) return null;
  const other = moved.counterparties[0]!;
  return other === item.principal ? null : other;
}

/**
 * The pair's words as one side tells them, or null when the transaction is not a plain transfer to or from another
 * watched address.
 */
export function pairWords(
  item: AlertItem,
  naming: Naming,
  watched: (principal: string) => boolean,
  own: { title: string; body: string },
): PairWords | null {
  const activity = item.activity;
  const other = pairCounterparty(item);
  if (!activity || other === null || !watched(other)) return null;
  const moved = txEffect(activity, item.principal).effects[0]!;
  const [from, to] = moved.net < 0n ? [item.principal, other] : [other, item.principal];
  const words = `${naming.party(from)} → ${naming.party(to)} ${amountText(moved, naming)}`;
  const lines: string[] = [];
  if (activity.contractCall) lines.push(viaWords(activity.contractCall));
  const memo = own.body.split('\n').find((line) => line.startsWith('“'));
  if (memo) lines.push(memo);
  if (activity.fee > 0n) lines.push(`Fee ${formatStx(activity.fee)}, paid by ${naming.party(activity.sender ?? from)}`);
  return {
    key: `${item.network}:${activity.txId}`,
    from,
    to,
    title: item.phase === 'pending' ? `${words} — pending` : words,
    body: lines.join('\n'),
    sides: { [item.id]: { phase: item.phase, ...own } },
  };
}
