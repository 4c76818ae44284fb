import type { AlertItem, ShownAs } from './alert-plan.ts';
import { amountText, callName, type Naming } from './effect-text.ts';
import { formatStx } from './amount.ts';
import { txEffect } from './tx-effect.ts';

/**
 * A transfer between two watched addresses is one event for the person watching both: "Alice → Walker 4.30 STX"
 * rather than a sent and a received alert side by side. The inbox keeps one entry per address (each address's
 * page and filter lists its own, the ledgers stay per address); only what is shown at once is told as one.
 */
export interface TransferPair {
  readonly from: AlertItem;
  readonly to: AlertItem;
}

/** Phases a pair is told in: a revert or a drop corrects each address on its own, a failure moved nothing. */
const PAIRED = new Set<AlertItem['phase']>(['pending', 'confirmed']);

/** Whether `to` is the receiving side of `from`'s transaction: its main asset, the same amount, each other's party. */
export function isPair(from: AlertItem, to: AlertItem): boolean {
  if (!from.activity || !to.activity || from.network !== to.network || from.subject !== to.subject) return false;
  if (from.principal === to.principal || from.phase !== to.phase || !PAIRED.has(from.phase)) return false;
  const [sent] = txEffect(from.activity, from.principal).effects;
  const [received] = txEffect(to.activity, to.principal).effects;
  return (
    sent !== undefined &&
    received !== undefined &&
    sent.how === 'transfer' &&
    received.how === 'transfer' &&
    sent.assetIdentifier === received.assetIdentifier &&
    sent.net === -received.net &&
    sent.net < 0n &&
    sent.counterparties.includes(to.principal) &&
    received.counterparties.includes(from.principal)
  );
}

/**
 * The pairs among a batch's alerts. A side already told inside a summary stays with it; a receiving side already
 * told on its own would leave its notification behind (the pair replaces the sending side's), so it stays single.
 */
export function findPairs(items: readonly AlertItem[], shownAs: ShownAs): TransferPair[] {
  const pairs: TransferPair[] = [];
  const taken = new Set<string>();
  for (const from of items)
    for (const to of items) {
      if (taken.has(from.id) || taken.has(to.id) || !isPair(from, to)) continue;
      if (shownAs(from.id) === 'summary' || shownAs(to.id) !== null) continue;
      pairs.push({ from, to });
      taken.add(from.id).add(to.id);
    }
  return pairs;
}

/** "Alice → Walker 4.30 STX", "Alice → Walker 4.30 STX — pending". */
export function pairTitle({ from, to }: TransferPair, naming: Naming): string {
  const [sent] = txEffect(from.activity!, from.principal).effects;
  const words = `${naming.party(from.principal)} → ${naming.party(to.principal)} ${amountText(sent!, naming)}`;
  return from.phase === 'pending' ? `${words} — pending` : words;
}

/** The call it went through, the memo, and the fee with who paid it (either side may have signed). */
export function pairBody({ from, to }: TransferPair, naming: Naming, memo: (text: string) => string): string {
  const activity = from.activity!;
  const lines: string[] = [];
  if (activity.contractCall) lines.push(`via ${callName(activity.contractCall)}`);
  if (activity.memo) lines.push(memo(activity.memo));
  const payer = [from, to].find((side) => txEffect(side.activity!, side.principal).signed);
  if (payer && activity.fee > 0n)
    lines.push(`Fee ${formatStx(activity.fee)}, paid by ${naming.party(payer.principal)}`);
  return lines.join('\n');
}
