import type { StxBalance } from './snapshot.ts';
import type { StakingPosition } from './staking.ts';

/** An address's STX as the app tells them: what it can spend, its balance's lock, and what its bonds hold. */
export interface StxHeld {
  readonly total: bigint;
  readonly available: bigint;
  /** The balance's lock (STX staking, or an older stacking lock), as the node's balance says it. */
  readonly locked: bigint;
  /** STX its bond positions lock until their bonds end, and how many positions those are. */
  readonly bonded: bigint;
  readonly bonds: number;
}

/**
 * pox-5 locks a bond's STX from registration to the bond's end, through an early exit too, but the API never puts
 * them in the balance's lock (it reads that from stake, stake-update and unstake only), so its `available` counts
 * them as spendable. Here they are taken out of it, and never below nothing (a bond read before the balance that paid
 * for it); the bonds' STX are said as their positions list them.
 */
export function stxHeld(stx: StxBalance, staking: StakingPosition | null | undefined): StxHeld {
  const locking = (staking?.bonds ?? []).filter(
    (bond) => bond.status !== 'unlocked' && bond.status !== 'rolled_over' && bond.lockedUstx > 0n,
  );
  const bonded = locking.reduce((sum, bond) => sum + bond.lockedUstx, 0n);
  const available = stx.available > bonded ? stx.available - bonded : 0n;
  return { total: stx.total, available, locked: stx.locked, bonded, bonds: locking.length };
}
