import type { AlertPhase } from './alert-ledger.ts';
import type { Delivery } from './inbox.ts';

const MINED: readonly AlertPhase[] = ['confirmed', 'failed'];

/**
 * Whether what the user was shown of an alert says its transaction left the chain after being mined: "Reverted", or
 * pending again after a mined state (a revert and the return to the mempool heard in one batch are told as "Reverted —
 * back in the mempool"). A mined state can only be followed by a revert (alert-ledger.ts), so nothing else reads so.
 */
export function toldReverted(deliveries: readonly Pick<Delivery, 'phase'>[]): boolean {
  let mined = false;
  for (const { phase } of deliveries) {
    if (phase === 'reverted' || (mined && !MINED.includes(phase))) return true;
    if (MINED.includes(phase)) mined = true;
  }
  return false;
}

/** Whether the alert's transaction is mined again (its latest state) after a re-org took it back, as told. */
export const minedAgainAfterReorg = (
  phase: AlertPhase,
  told: readonly { readonly deliveries: readonly Pick<Delivery, 'phase'>[] }[],
): boolean => MINED.includes(phase) && told.some((entry) => toldReverted(entry.deliveries));
