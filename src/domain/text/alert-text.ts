import { stakingTitle } from './staking-text.ts';
import { droppedWord, feeRaised, shortPrincipal } from './activity-text.ts';
import { formatStx } from '../amount.ts';
import { failedWords, feeSuffix, wasSkipped, headline, partiesLine, type Naming } from './effect-text.ts';
import { toldEffect } from './told-effect.ts';
import { failureReason } from './attempt-text.ts';
import type { AlertItem } from '../alerts/alert-plan.ts';
import type { AlertPhase } from '../alerts/alert-ledger.ts';
import type { PoisoningSuspect } from '../address/lookalike.ts';
import type { Activity, TokenMetadata } from '../state/snapshot.ts';

/** What the words of a notification need to know beyond the alert: names a person gave or registered. */
export interface TextContext {
  /** The user's label for a watched address (empty when none). */
  label(principal: string): string;
  /** A BNS name of any address, when known. */
  nameOf(principal: string): string | null;
  token(assetIdentifier: string): TokenMetadata | undefined;
  /** Whether an address is watched on this device; else taken as so when it has a label. */
  watched?(principal: string): boolean;
  /** Whether the transaction brought the address something from a lookalike of a trusted address (see lookalike.ts). */
  suspect?(activity: Activity, principal: string): PoisoningSuspect | null;
}

const MEMO_LENGTH = 60;
const REVERTED_NOTE = 'A chain re-organisation removed this transaction from its block.';
const BACK_NOTE = 'A chain re-organisation removed this transaction from its block: it waits to be mined again.';
/** What a transaction back in the mempool after a revert is told as, until it is mined again. */
export const BACK_IN_MEMPOOL = 'Reverted — back in the mempool';

export const addressPagePath = (principal: string, txId?: string): string =>
  `/address/${encodeURIComponent(principal)}${txId ? `#tx-${txId}` : ''}`;

/**
 * What an alert calls the address it is about: as the user named it, else by its BNS name, else short; the same
 * name the watch list and the inbox give it (`naming`'s party).
 */
export const displayName = (principal: string, context: TextContext): string =>
  context.label(principal) || context.nameOf(principal) || shortPrincipal(principal);

export const naming = (context: TextContext): Naming => ({
  token: (asset) => context.token(asset),
  party: (principal) => context.label(principal) || context.nameOf(principal) || shortPrincipal(principal),
});

/** A lookalike sender of something received (a failed transaction brought nothing, so it is told as it is). */
export const poisoningIn = (item: AlertItem, context: TextContext): PoisoningSuspect | null =>
  item.activity && item.phase !== 'failed' && item.activity.status !== 'failed'
    ? (context.suspect?.(item.activity, item.principal) ?? null)
    : null;

/**
 * "Received 1,250.00 STX", "Sent 40.00 WGOLD · fee 0.0003 STX", "Sending 40.00 STX — pending",
 * "Transfer failed · fee 0.0003 STX", "Reverted: Received 5.00 STX", "Dropped: Sending 40.00 STX", and once the
 * reverted transaction is back in the mempool "Reverted — back in the mempool: Receiving 5.00 STX". The direction is
 * the address's own net movement.
 */
export function alertTitle(item: AlertItem, context: TextContext): string {
  if (item.phase === 'locked' || item.phase === 'unlocked') {
    const amount = item.amount ?? 0n;
    return (
      stakingTitle(item.subject, amount) ??
      (item.phase === 'locked' ? `${formatStx(amount)} locked for stacking` : `Unlocked ${formatStx(amount)}`)
    );
  }
  const activity = item.activity;
  // Only a pending state can be back in the mempool: a mark on any other is ignored.
  const back = item.phase === 'pending' && Boolean(item.afterRevert);
  if (!activity && item.recalled && item.phase === 'reverted')
    return `Reverted: ${item.recalled.title.replace(/ · fee [\d.,]+( STX)?$/, '').replace(/^Reverted: /, '')}`;
  if (!activity) return 'New transaction';
  const effect = toldEffect(activity, item.principal);
  const suspect = poisoningIn(item, context);
  if (suspect) {
    const words = `Possible address-poisoning: ${shortPrincipal(suspect.sender)} looks like ${naming(context).party(suspect.imitates)}`;
    const prefix = back
      ? BACK_IN_MEMPOOL
      : item.phase === 'reverted'
        ? 'Reverted'
        : item.phase === 'dropped'
          ? droppedWord(activity, activity.sender === item.principal)
          : null;
    return prefix ? `${prefix}: ${words}` : words;
  }
  if (item.phase === 'failed' || (item.phase === 'reverted' && activity.status === 'failed')) {
    const what = failedWords(activity);
    return item.phase === 'reverted' ? `Reverted: ${what}` : `${what}${feeSuffix(effect)}`;
  }
  // A dropped transaction never moved anything: it is told as what it was going to do.
  const tense = item.phase === 'pending' || item.phase === 'dropped' ? 'pending' : 'done';
  const what = headline(activity, effect, tense, naming(context));
  if (item.phase === 'reverted') return `Reverted: ${what}`;
  if (item.phase === 'dropped') return `${droppedWord(activity, activity.sender === item.principal)}: ${what}`;
  if (back) return `${BACK_IN_MEMPOOL}: ${what}`;
  return tense === 'pending' ? `${what} — pending` : `${what}${feeSuffix(effect)}`;
}

/** The label, the other party and the call it went through, the memo as plain truncated text, what a state means. */
export function alertBody(item: AlertItem, context: TextContext): string {
  if (!item.activity && item.recalled && item.phase === 'reverted')
    return [
      ...item.recalled.body.split('\n').filter((line) => !/^(Fee |A chain re-organisation)/.test(line)),
      REVERTED_NOTE,
    ].join('\n');
  const lines = [displayName(item.principal, context)];
  const activity = item.activity;
  if (activity) {
    const effect = toldEffect(activity, item.principal);
    const parties = partiesLine(activity, effect, naming(context));
    if (parties) lines.push(parties);
    const suspect = poisoningIn(item, context);
    if (suspect)
      lines.push(
        `Sent by ${suspect.sender}, not ${suspect.imitates}: same first and last characters, a different address. Never copy an address from this transaction.`,
      );
    if (activity.memo) lines.push(`“${truncate(activity.memo.replace(/\s+/g, ' '), MEMO_LENGTH)}”`);
    if (item.phase === 'pending' && effect.signed) lines.push(`Fee ${formatStx(effect.fee)}`);
  }
  const note = followUpNote(item.phase, activity, Boolean(item.afterRevert));
  if (note) lines.push(note);
  if (item.phase === 'unlocked') lines.push('These STX can be spent again.');
  if (activity && wasSkipped(activity) && (item.phase === 'failed' || item.phase === 'reverted'))
    lines.push('Miners skipped it as problematic: nothing moved, only the fee was paid.');
  // Why the chain refused it, as the address page's row says: a post-condition, or the contract itself.
  const reason = activity && item.phase === 'failed' ? failureReason(activity) : null;
  if (reason) lines.push(`${reason}: nothing moved, only the fee was paid.`);
  return lines.join('\n');
}

/**
 * What a revert or a drop means, the line its words end with; a transaction back in the mempool after a revert
 * (`afterRevert`) says it waits to be mined again. Null for any other state.
 */
export function followUpNote(phase: AlertPhase, activity: Activity | null, afterRevert = false): string | null {
  if (phase === 'reverted') return REVERTED_NOTE;
  if (phase === 'pending' && afterRevert) return BACK_NOTE;
  if (phase !== 'dropped') return null;
  const raised = activity !== null && feeRaised(activity);
  const by = activity?.replacedBy ? shortTxId(activity.replacedBy) : null;
  if (by && raised) return `Replaced by ${by}, the same nonce with a higher fee: this one moved nothing.`;
  if (by) return `Replaced by ${by}, mined with the same nonce: this one moved nothing.`;
  return raised
    ? 'Replaced by another transaction with the same nonce and a higher fee: this one moved nothing.'
    : 'It left the mempool without being mined: nothing moved.';
}

/** "0x2280…71d2": a transaction id a person can match against another. */
export const shortTxId = (txId: string): string => (txId.length > 12 ? `${txId.slice(0, 6)}…${txId.slice(-4)}` : txId);

/** The address an alert's words are about, as they named it: its body's first line (alertBody's, a relay's too). */
export const subjectOfBody = (body: string): string => body.split('\n', 1)[0] ?? '';

/**
 * An alert's body without its first line, which names the address (alertBody starts with it, the relay's words
 * too): for a list already headed by that address.
 */
export function bodyUnderSubject(body: string): string {
  const end = body.indexOf('\n');
  return end < 0 ? '' : body.slice(end + 1);
}

const truncate = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;
