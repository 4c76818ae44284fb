import type { AlertPhase } from './alert-ledger.ts';

/** The state a transaction's alert is in, as its row's chip says it. */
export type InboxState =
  | 'Pending'
  | 'Confirmed'
  | 'Failed'
  | 'Skipped'
  | 'Dropped'
  | 'Fee raised'
  | 'Replaced'
  | 'Reverted'
  | 'Locked'
  | 'Unlocked';

const STATE: Readonly<Record<AlertPhase, InboxState>> = {
  pending: 'Pending',
  confirmed: 'Confirmed',
  failed: 'Failed',
  dropped: 'Dropped',
  reverted: 'Reverted',
  locked: 'Locked',
  unlocked: 'Unlocked',
};

/**
 * A row's state chip: where its transaction stands now (its alert's latest phase), or where the STX lock it tells of
 * does. News that is no transaction's and no lock's (rewards claimable, a bond's step) has none: "Confirmed" would
 * say nothing true about it.
 */
export function inboxState(alert: {
  readonly phase: AlertPhase;
  readonly txId: string | null;
  /**
   * The node's own status word, where the alert kept it: a transaction the miners skipped is no failure, and one
   * replaced by a higher fee is no loss.
   */
  readonly statusDetail?: string | undefined;
  /** Whether the address (or one of the pair) signed it: a fee bump is its signer's "Fee raised" (alert-text.ts). */
  readonly signed?: boolean;
}): InboxState | null {
  if (alert.phase === 'locked' || alert.phase === 'unlocked') return STATE[alert.phase];
  if (alert.txId === null) return null;
  if (alert.phase === 'failed' && alert.statusDetail === 'problematic_skipped') return 'Skipped';
  if (alert.phase === 'dropped' && alert.statusDetail === 'dropped_replace_by_fee')
    return alert.signed ? 'Fee raised' : 'Replaced';
  return STATE[alert.phase];
}

/** A chip's class name: `inbox-state-fee-raised`. */
export const stateClass = (state: InboxState): string => `inbox-state-${state.toLowerCase().replace(/ /g, '-')}`;

/** The words of a title that its chip already says: "Failed: ", "Dropped: ", "… — pending". */
const SAID: Partial<Record<InboxState, { readonly prefix?: string; readonly suffix?: string }>> = {
  Pending: { suffix: ' — pending' },
  Failed: { prefix: 'Failed: ' },
  Skipped: { prefix: 'Skipped as problematic: ' },
  Dropped: { prefix: 'Dropped: ' },
  'Fee raised': { prefix: 'Fee raised: ' },
  Replaced: { prefix: 'Replaced: ' },
  Reverted: { prefix: 'Reverted: ' },
};

/**
 * A title beside its chip, in three parts: what the chip already says before and after (kept for a screen reader
 * and for the notification's words, not drawn twice) and what is left to draw.
 */
export function besideChip(title: string, state: InboxState | null): { before: string; shown: string; after: string } {
  const said = state ? SAID[state] : undefined;
  const before = said?.prefix && title.startsWith(said.prefix) ? said.prefix : '';
  const after =
    said?.suffix && title.endsWith(said.suffix) && title.length > before.length + said.suffix.length ? said.suffix : '';
  return { before, shown: title.slice(before.length, title.length - after.length), after };
}
