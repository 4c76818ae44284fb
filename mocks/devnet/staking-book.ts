import { BOND_LENGTH_CYCLES, PRECISION, bondFirstCycle, cycleOf, cycleStart, unlockHeightOf } from './pox5.ts';

/** Where a staking record was written: its transaction (whose block the routes look up) and heights. */
export interface ChainPosition {
  readonly txId: string;
  readonly height: number;
  readonly burnHeight: number;
}

/** A pox-5 STX staker's one position: what pox-5.clar keeps in `staker-info` and its per-cycle memberships. */
export interface StxPosition {
  signer: string;
  amount: bigint;
  firstRewardCycle: number;
  /** The first cycle the STX no longer stack in. */
  unlockCycle: number;
  unlockBurnHeight: number;
  /** uSTX stacked per reward cycle: what rewards are shared by. */
  readonly cycles: Map<number, bigint>;
  lock: ChainPosition;
  /** sBTC sats, lifetime: rewards outlive the lock until they are claimed. */
  accrued: bigint;
  claimed: bigint;
}

export interface Bond {
  readonly index: number;
  readonly targetRateBps: number;
  readonly stxValueRatio: number;
  readonly minUstxRatio: number;
  readonly allowlist: ReadonlyMap<string, bigint>;
  /** Who set the bond up. */
  readonly admin: string;
  readonly created: ChainPosition;
  paidOut: bigint;
}

export interface BondPosition {
  readonly bondIndex: number;
  readonly staker: string;
  readonly signer: string;
  /** `l1`: BTC locked on Bitcoin; `l2`: sBTC locked in pox-5. */
  readonly type: 'l1' | 'l2';
  sats: bigint;
  readonly ustx: bigint;
  readonly enrollment: ChainPosition;
  readonly l1Outputs: readonly { txid: string; outputIndex: number }[];
  earlyExit: boolean;
  accrued: bigint;
  claimed: bigint;
}

export interface SignerRecord {
  readonly signer: string;
  readonly signerKey: string;
  readonly registered: ChainPosition;
}

export type BondStatus = 'enrolled' | 'running' | 'early_exit' | 'unlocked';

/** Bond positions earn their target rate per year; the devnet counts 26 cycles to a year. */
const CYCLES_PER_YEAR = 26n;

export const bondStartHeight = (bond: { index: number }): number => cycleStart(bondFirstCycle(bond.index));
export const bondUnlockCycle = (bond: { index: number }): number => bondFirstCycle(bond.index) + BOND_LENGTH_CYCLES;
export const bondUnlockHeight = (bond: { index: number }): number => unlockHeightOf(bondUnlockCycle(bond));

/** All of pox-5's state the devnet models. Cloned with the ledger per block, so a re-org rolls it back. */
export class StakingBook {
  readonly stx = new Map<string, StxPosition>();
  readonly bonds = new Map<number, Bond>();
  /** By staker: one bond membership each. */
  readonly bondPositions = new Map<string, BondPosition>();
  readonly signers = new Map<string, SignerRecord>();
  /** The sBTC sats shared among STX stakers for each cycle that ended. */
  readonly cycleRewards = new Map<number, bigint>();
  /** Set by `pause-rewards`: claims fail, accrual goes on (pox-5.clar). */
  paused = false;
  /** The devnet's bond and pause admin (testnet's pause admin is a boot address no one holds keys for). */
  admin = '';
  /** What the devnet pays STX stakers per cycle, in sats. */
  rewardSatsPerCycle = 120_000n;
  private accruedThrough = 0;

  clone(): StakingBook {
    const copy = new StakingBook();
    for (const [staker, p] of this.stx) copy.stx.set(staker, { ...p, cycles: new Map(p.cycles) });
    for (const [index, bond] of this.bonds) copy.bonds.set(index, { ...bond });
    for (const [staker, p] of this.bondPositions) copy.bondPositions.set(staker, { ...p });
    for (const [signer, record] of this.signers) copy.signers.set(signer, record);
    for (const [cycle, sats] of this.cycleRewards) copy.cycleRewards.set(cycle, sats);
    copy.paused = this.paused;
    copy.admin = this.admin;
    copy.rewardSatsPerCycle = this.rewardSatsPerCycle;
    copy.accruedThrough = this.accruedThrough;
    return copy;
  }

  /** The position while it still has a lock or unclaimed rewards to show. */
  activeStake(staker: string, burnHeight: number): StxPosition | undefined {
    const position = this.stx.get(staker);
    return position && position.unlockCycle > cycleOf(burnHeight) ? position : undefined;
  }

  /** The PoX version behind a lock: pox-5 when a stake or a bond made it, else the older pox-4 (genesis, stack-stx). */
  poxVersionOf(principal: string, lockTxId: string): 4 | 5 {
    const made = [this.stx.get(principal)?.lock.txId, this.bondPositions.get(principal)?.enrollment.txId];
    return made.includes(lockTxId) ? 5 : 4;
  }

  lockedStx(staker: string, burnHeight: number): bigint {
    const position = this.stx.get(staker);
    return position && position.unlockBurnHeight > burnHeight ? position.amount : 0n;
  }

  /**
   * A position left early keeps its STX locked to the bond's end (pox-5: "the staker's locked STX remains locked
   * through the bond's normal unlock cycle"), so it too is unlocked only once the bond ran its term.
   */
  bondStatus(position: BondPosition, burnHeight: number): BondStatus {
    const bond = { index: position.bondIndex };
    if (burnHeight >= bondUnlockHeight(bond)) return 'unlocked';
    if (position.earlyExit) return 'early_exit';
    return burnHeight >= bondStartHeight(bond) ? 'running' : 'enrolled';
  }

  /**
   * Rewards are calculated once a cycle has ended: each staker of that cycle earns
   * `floor(stacked × rewards-per-uSTX / PRECISION)` (pox-5.clar), and each running bond position its target rate.
   */
  reachBurnHeight(burnHeight: number): bigint {
    const ended = cycleOf(burnHeight) - 1;
    if (this.accruedThrough === 0) this.accruedThrough = ended;
    let earned = 0n;
    for (let cycle = this.accruedThrough + 1; cycle <= ended; cycle++) earned += this.accrueCycle(cycle);
    this.accruedThrough = Math.max(this.accruedThrough, ended);
    return earned;
  }

  /** Accrues one ended cycle; answers the sats earned (what the rewards pool must hold for the claims). */
  private accrueCycle(cycle: number): bigint {
    let earned = 0n;
    const stakers = [...this.stx.values()].filter((p) => (p.cycles.get(cycle) ?? 0n) > 0n);
    const total = stakers.reduce((sum, p) => sum + p.cycles.get(cycle)!, 0n);
    if (total > 0n) {
      const perUstx = (this.rewardSatsPerCycle * PRECISION) / total;
      this.cycleRewards.set(cycle, this.rewardSatsPerCycle);
      for (const p of stakers) {
        const share = (p.cycles.get(cycle)! * perUstx) / PRECISION;
        p.accrued += share;
        earned += share;
      }
    }
    const end = cycleStart(cycle + 1);
    for (const position of this.bondPositions.values()) {
      const bond = this.bonds.get(position.bondIndex);
      if (!bond || position.earlyExit) continue;
      if (end <= bondStartHeight(bond) || end > bondUnlockHeight(bond)) continue;
      const share = (position.sats * BigInt(bond.targetRateBps)) / 10_000n / CYCLES_PER_YEAR;
      position.accrued += share;
      earned += share;
    }
    return earned;
  }
}
