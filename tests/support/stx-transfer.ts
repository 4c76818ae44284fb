import type { Activity } from '../../src/domain/state/snapshot.ts';

/**
 * A 4.30 STX transfer from `from` to `to` (its 0.00018 STX fee paid by `from`), as `principal` sees it: pending, or
 * mined at height 12. `time`: its receipt time, in seconds.
 */
export function stxTransfer(
  principal: string,
  txId: string,
  mined: boolean,
  from: string,
  to: string,
  time: number,
): Activity {
  return {
    txId,
    status: mined ? 'success' : 'pending',
    kind: 'token_transfer',
    counterparty: principal === from ? to : from,
    stxNet: principal === from ? -4_300_180n : 4_300_000n,
    fee: 180n,
    memo: null,
    contractCall: null,
    blockHeight: mined ? 12 : null,
    time,
    sender: from,
    movements: [
      { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: from, recipient: to, amount: 4_300_000n },
    ],
  };
}
