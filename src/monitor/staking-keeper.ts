import type { NodeConfig } from '../chain/networks.ts';
import type { StakingReader } from '../chain/staking-reader.ts';
import type { Network } from '../domain/network.ts';
import { poxCall } from '../domain/state/pox-call.ts';
import type { Activity, AddressSnapshot, StxBalance } from '../domain/state/snapshot.ts';
import { hasStaking, stakes, type StakingPosition } from '../domain/state/staking.ts';
import type { SnapshotPort } from './ports.ts';

/** A principal's staking as read, and as it was (null on its first read: that one is history, never told). */
export interface StakingChange {
  readonly before: StakingPosition | null;
  readonly after: StakingPosition;
  /** The burn height the chain was at when it was read, when known. */
  readonly burnHeight: number | null;
}

export type StakingListener = (principal: string, change: StakingChange) => void;

/** A keeper for a monitor whose node has a staking reader, handing changes to its sink in order. */
export function followStaking(
  deps: {
    readonly node: NodeConfig;
    readonly book: SnapshotPort;
    readonly staking?: StakingReader;
    readonly report?: (problem: string) => void;
  },
  sink: { staking?(network: Network, principal: string, change: StakingChange): void },
): StakingKeeper | null {
  const { node, book, staking, report } = deps;
  if (!staking) return null;
  return new StakingKeeper({
    network: node.network,
    reader: staking,
    book,
    changed: (principal, change) => sink.staking?.(node.network, principal, change),
    ...(report ? { report } : {}),
  });
}

/** A successful call of pox-5: it may have changed the staking of the principal it was learned for. */
const isMinedPox5Call = (activity: Activity): boolean =>
  activity.status === 'success' && poxCall(activity.contractCall)?.version === 5;

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Each followed principal's PoX-5 staking, kept in its snapshot. Read at its first balance, again when its STX
 * lock changes (a stake, an update, an unstake, an unlock), when a pox-5 call of its own is mined (a registration
 * for a bond: the API never puts a bond's STX into the balance's lock, so the balance does not tell it) or, for a
 * principal that stakes or holds a bond, when its balance moves (a claim pays sBTC and costs a fee) and at every new
 * burn block: rewards accrue and bonds open, mature or end at cycle boundaries with no transaction of the address. A
 * failed read is tried again at the next burn block; a principal never read, at the next reconnect.
 */
export class StakingKeeper {
  private readonly readAt = new Map<string, number>();
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    private readonly deps: {
      readonly network: Network;
      readonly reader: StakingReader;
      readonly book: SnapshotPort;
      readonly changed: StakingListener;
      readonly report?: (problem: string) => void;
    },
  ) {}

  /** After the monitor stored a new STX balance. */
  balanceChanged(principal: string, before: StxBalance | null, after: StxBalance, burnHeight: number | null): void {
    const known = this.deps.book.get(principal)?.staking;
    const lockMoved =
      before?.locked !== after.locked ||
      before.unlockBurnHeight !== after.unlockBurnHeight ||
      before.lockBurnHeight !== after.lockBurnHeight;
    if (known === undefined || lockMoved || hasStaking(known)) void this.refresh(principal, burnHeight);
  }

  /**
   * Transactions of the principal learned, live or by a sync: a mined pox-5 call of its own may have made it a
   * staker its balance does not show (a bond's registration), or changed a position it has.
   */
  transactions(principal: string, activities: readonly Activity[], burnHeight: number | null): void {
    if (activities.some(isMinedPox5Call)) void this.refresh(principal, burnHeight);
  }

  /** A new block: principals that stake are read again once per burn height, and at once after a re-org. */
  burnBlock(principals: ReadonlySet<string>, burnHeight: number, reorg = false): void {
    if (reorg) this.forgetReads();
    // Where the book keeps who stakes (a relay follows thousands of principals), only they and those with a read under
    // way are looked at, not every principal at every block.
    const { book } = this.deps;
    const candidates = book.staking
      ? new Set([...book.staking(), ...this.turns.keys()].filter((principal) => principals.has(principal)))
      : principals;
    this.readAgain(candidates, burnHeight, () => false);
  }

  /** A re-org: what was read at a burn height may be of the fork left, so the next burn block reads every staker. */
  forgetReads(): void {
    this.readAt.clear();
  }

  /**
   * After a (re)connect: what accrued while no block was heard, and a read the app may have closed before storing
   * (its snapshots are written behind the changes): a lock its staking read may not explain (the balance was stored,
   * the read that followed it was not), a pox-5 call of its own among its recent transactions (a bond's registration
   * shows in no balance), and a principal never read.
   */
  reconciled(principals: Iterable<string>, burnHeight: number): void {
    this.readAgain(
      principals,
      burnHeight,
      (snapshot) =>
        snapshot?.staking === undefined || (snapshot.stx?.locked ?? 0n) > 0n || snapshot.recent.some(isMinedPox5Call),
    );
  }

  /** Principals that stake, or that `owed` names, read once per burn height. */
  private readAgain(
    principals: Iterable<string>,
    burnHeight: number,
    owed: (snapshot: AddressSnapshot | undefined) => boolean,
  ): void {
    for (const principal of principals) {
      const snapshot = this.deps.book.get(principal);
      // A read under way may have begun before this burn block: one more after it, or what it finds is read stale.
      const due = stakes(snapshot) || this.turns.has(principal) || (snapshot !== undefined && owed(snapshot));
      if (!due || (this.readAt.get(principal) ?? -1) >= burnHeight) continue;
      // Counted as read at this height once asked for: a failed read is tried at the next burn height, and blocks of
      // one burn height (or a reconnect) never queue a second read behind the first.
      this.readAt.set(principal, burnHeight);
      void this.refresh(principal, burnHeight);
    }
  }

  /** Reads one principal's staking after any read of it under way, one at a time. */
  refresh(principal: string, burnHeight: number | null): Promise<void> {
    const turn = (this.turns.get(principal) ?? Promise.resolve()).then(() => this.read(principal, burnHeight));
    this.turns.set(principal, turn);
    void turn.finally(() => {
      if (this.turns.get(principal) === turn) this.turns.delete(principal);
    });
    return turn;
  }

  /** Resolves once the reads under way are done. */
  async settled(): Promise<void> {
    while (this.turns.size > 0) await Promise.all([...this.turns.values()]);
  }

  private async read(principal: string, burnHeight: number | null): Promise<void> {
    const { book, network, reader } = this.deps;
    try {
      const read = await reader.position(principal, (book.get(principal)?.staking?.locked ?? 0n) > 0n);
      if (burnHeight !== null) this.readAt.set(principal, Math.max(burnHeight, this.readAt.get(principal) ?? -1));
      const before = book.get(principal)?.staking;
      // Whether rewards are paused is read only while the principal stakes: what was known stays known between.
      const after =
        read && read.rewardsPaused == null && before?.rewardsPaused != null
          ? { ...read, rewardsPaused: before.rewardsPaused }
          : read;
      book.update(principal, network, (snapshot) => ({ ...snapshot, staking: after }));
      if (after)
        this.deps.changed(principal, { before: before ?? null, after, burnHeight: after.burnHeight ?? burnHeight });
    } catch (error) {
      this.deps.report?.(`Could not read the staking of ${principal}: ${describe(error)}`);
    }
  }
}
