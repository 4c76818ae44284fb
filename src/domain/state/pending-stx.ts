import { formatStx } from '../amount.ts';
import type { AddressSnapshot } from './snapshot.ts';

/** STX on its way in and out of an address: what its pending transactions would move once mined. */
export interface PendingStx {
  readonly incoming: bigint;
  /** Positive: what would leave, fees included. */
  readonly outgoing: bigint;
}

/**
 * Sums the address's pending transactions (the node's mempool, as the snapshot last read it), each by its own net
 * movement for the address: a transfer in counts in, anything it signed counts out with its fee.
 */
export function pendingStx(snapshot: Pick<AddressSnapshot, 'pending'>): PendingStx {
  let incoming = 0n;
  let outgoing = 0n;
  for (const activity of snapshot.pending) {
    if (activity.stxNet > 0n) incoming += activity.stxNet;
    else outgoing -= activity.stxNet;
  }
  return { incoming, outgoing };
}

/** "+12.85 STX incoming", "−3.00 STX outgoing": the words of a wallet, only for what is not zero. */
export function pendingStxLines({ incoming, outgoing }: PendingStx): { in: string | null; out: string | null } {
  return {
    in: incoming > 0n ? `+${formatStx(incoming)} incoming` : null,
    out: outgoing > 0n ? `−${formatStx(outgoing)} outgoing` : null,
  };
}
