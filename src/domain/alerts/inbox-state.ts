import type { AlertPhase } from './alert-ledger.ts';

/** The state a transaction's alert is in, as its row's chip says it. */
export type InboxState = 'Pending' | 'Confirmed' | 'Failed' | 'Dropped' | 'Reverted' | 'Locked' | 'Unlocked';

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
export function inboxState(alert: { readonly phase: AlertPhase; readonly txId: string | null }): InboxState | null {
  if (alert.phase === 'locked' || alert.phase === 'unlocked') return STATE[alert.phase];
  return alert.txId === null ? null : STATE[alert.phase];
}
