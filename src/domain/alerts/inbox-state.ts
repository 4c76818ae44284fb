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
  | 'Unlocked'
  | 'Staking'
  | 'Rewards';

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
 * What a staking alert's chip says, by its subject (staking-news.ts): STX locked or unlocked where that is what it
 * tells, else what it is about. An alert kept before its id was passed keeps its phase's word.
 */
const STAKING: readonly (readonly [prefix: string, state: InboxState])[] = [
  ['lock:', 'Locked'],
  ['stake:', 'Locked'],
  ['stake-update:', 'Locked'],
  ['unlock:', 'Unlocked'],
  ['bond-matured:', 'Unlocked'],
  ['unstake:', 'Staking'],
  ['bond-exited:', 'Staking'],
  ['claimable:', 'Rewards'],
  ['rewards-paused', 'Rewards'],
];

/**
 * A row's state chip: where its transaction stands now (its alert's latest phase), or what its staking news is
 * (an STX lock or unlock, a change of the stake, sBTC rewards): never "Locked" on rewards to claim.
 */
export function inboxState(alert: {
  readonly phase: AlertPhase;
  readonly txId: string | null;
  /** The alert's id (`network:principal:subject`): a staking alert's subject says what it is about. */
  readonly id?: string;
  /**
   * The node's own status word, where the alert kept it: a transaction the miners skipped is no failure, and one
   * replaced by a higher fee is no loss.
   */
  readonly statusDetail?: string | undefined;
  /** Whether the address (or one of the pair) signed it: a fee bump is its signer's "Fee raised" (alert-text.ts). */
  readonly signed?: boolean;
}): InboxState | null {
  if (alert.phase === 'locked' || alert.phase === 'unlocked') {
    const subject = alert.id?.split(':').slice(2).join(':');
    if (subject === undefined) return STATE[alert.phase];
    return STAKING.find(([prefix]) => subject.startsWith(prefix))?.[1] ?? null;
  }
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
