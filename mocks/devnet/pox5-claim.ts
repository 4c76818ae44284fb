import { boolCV, listCV, noneCV, someCV, tupleCV } from '@stacks/transactions';
import type { Ledger, Outcome } from './ledger.ts';
import { ERR, ok, principal, print, refused, u } from './pox5-clarity.ts';
import { POX5_CONTRACT, SBTC } from './pox5.ts';

/**
 * A staker's claim through its signer manager: the manager pulls its pot from pox-5 (`claim-rewards`), pox-5
 * books the staker's share (`claim-staker-rewards-for-signer`, per position), and the manager pays it out in sBTC.
 */
export function claim(ledger: Ledger, staker: string, signer: string, rewardCycle: number): Outcome {
  const book = ledger.staking;
  const stx = book.stx.get(staker);
  const bond = book.bondPositions.get(staker);
  const stxShare = stx && stx.signer === signer ? stx.accrued - stx.claimed : 0n;
  const bondShare = bond && bond.signer === signer ? bond.accrued - bond.claimed : 0n;
  const total = stxShare + bondShare;
  if (book.paused) return refused(ERR.rewardsPaused);
  if (total <= 0n) return refused(ERR.noClaimableRewards);
  const logs = [
    print('claim-rewards', {
      'signer-manager': principal(signer),
      'reward-cycle': u(rewardCycle),
      'stx-rewards': tupleCV({ earned: u(stxShare), 'rewards-per-token': u(0) }),
      'bond-rewards': listCV(
        bond && bondShare > 0n ? [tupleCV({ earned: u(bondShare), 'bond-index': u(bond.bondIndex) })] : [],
      ),
      'bond-totals': u(bondShare),
      'total-rewards': u(total),
    }),
  ];
  const booked = (bondIndex: number | null, amount: bigint) =>
    print('claim-staker-rewards-for-signer', {
      staker: principal(staker),
      'signer-manager': principal(signer),
      'reward-cycle': u(rewardCycle),
      'bond-index': bondIndex === null ? noneCV() : someCV(u(bondIndex)),
      'rewards-claimed': u(amount),
      'is-bond': boolCV(bondIndex !== null),
    });
  if (stx && stxShare > 0n) {
    stx.claimed += stxShare;
    logs.push(booked(null, stxShare));
  }
  if (bond && bondShare > 0n) {
    bond.claimed += bondShare;
    const record = book.bonds.get(bond.bondIndex);
    if (record) record.paidOut += bondShare;
    logs.push(booked(bond.bondIndex, bondShare));
  }
  ledger.moveFt(SBTC.assetIdentifier, POX5_CONTRACT, signer, total);
  ledger.moveFt(SBTC.assetIdentifier, signer, staker, total);
  return ok(logs, [
    { type: 'ft_transfer', asset: SBTC.assetIdentifier, sender: POX5_CONTRACT, recipient: signer, amount: total },
    { type: 'ft_transfer', asset: SBTC.assetIdentifier, sender: signer, recipient: staker, amount: total },
  ]);
}
