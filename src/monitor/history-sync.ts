import type { ChainTip } from '../chain/decode.ts';
import type { NodeConfig } from '../chain/networks.ts';
import type { StacksRestClient } from '../chain/rest-client.ts';
import {
  emptySnapshot,
  lostInReorg,
  mergeMined,
  supersededBy,
  withPending,
  type Activity,
  type AddressSnapshot,
  type StxBalance,
} from '../domain/state/snapshot.ts';
import { HeardLive } from './heard-live.ts';
import { readHistoryPages, type HistoryRead } from './sync-pages.ts';
import type { HoldingsKeeper } from './holdings-keeper.ts';
import type { OrderedSink } from './ordered-sink.ts';
import type { PendingKeeper } from './pending-keeper.ts';
import type { SnapshotPort } from './ports.ts';
import type { ReorgTracker } from './reorg-tracker.ts';

/** A balance read, and the balance known when its answer came (a later one, told by the feed, is newer). */
interface BalanceRead {
  readonly stx: StxBalance;
  readonly knownThen: StxBalance | null;
}

export interface HistorySyncDeps {
  readonly node: NodeConfig;
  readonly rest: StacksRestClient;
  readonly book: SnapshotPort;
  readonly sink: OrderedSink;
  readonly holdings: HoldingsKeeper;
  readonly pending: PendingKeeper;
  readonly reorg: ReorgTracker;
  readonly tip: () => ChainTip | null;
  readonly now: () => number;
  /** Hands new transactions to the sink, in order, with their movements when wanted. */
  readonly tell: (principal: string, activities: readonly Activity[], source: 'sync') => void;
  /** A catch-up cut short by the page budget goes on soon, without waiting for the next reconnect. */
  readonly readOnSoon: () => void;
  /** The balance read: the alerts judge a lock change, and a staker's position is read again. */
  readonly balance: (principal: string, before: StxBalance | null, after: StxBalance) => void;
  /** Resolves once the feed has handed over every event the node sent before now (FeedLike.caughtUp). */
  readonly caughtUp: () => Promise<void>;
}

/**
 * One principal's sync over REST: its history since the newest known transaction (walking back through a re-org),
 * its balance when something moved, and on a first sync what it has pending. One request when nothing changed; two on
 * a first sync (history page and balance); more only to catch up.
 */
export class HistorySync {
  /** Where each principal's catch-up, cut short by the page budget, goes on, and the height it began at. */
  private readonly resumeAt = new Map<string, { cursor: string; height: number | null }>();
  /** Transactions the feed told mined while a sync read: newer than what it read. */
  private readonly heardLive = new HeardLive();

  constructor(private readonly deps: HistorySyncDeps) {}

  /** Whether a catch-up of the principal was cut short and goes on at its next sync. */
  midCatchUp(principal: string): boolean {
    return this.resumeAt.has(principal);
  }

  /** The feed told `txId` mined for `principal`: a sync reading meanwhile must not take it for gone. */
  heard(principal: string, txId: string): void {
    this.heardLive.heard(principal, txId);
  }

  async sync(principal: string): Promise<void> {
    this.heardLive.begin(principal);
    try {
      await this.read(principal);
    } catch (error) {
      this.heardLive.end(principal);
      // A page read under an ETag but never merged would come back as a 304 and hide what it held.
      this.deps.rest.forgetValidatorsOf(principal);
      throw error;
    }
  }

  private async read(principal: string): Promise<void> {
    const { book, node, rest, sink, reorg } = this.deps;
    const known = book.get(principal) ?? emptySnapshot(principal, node.network);
    const firstSync = known.syncedAt === null;
    const syncedHeight = known.syncedHeight ?? null;
    const heightNow = this.deps.tip()?.height ?? null;
    const reorgFrom = reorg.from;
    // A catch-up cut short by the page budget goes on from where it stopped, and then counts from when it began.
    const resume = firstSync || reorgFrom !== null ? undefined : this.resumeAt.get(principal);
    const read = await readHistoryPages(rest, principal, {
      known,
      firstSync,
      syncedHeight,
      reorgFrom,
      cursor: resume?.cursor ?? null,
    });
    if (read.complete) this.resumeAt.delete(principal);
    else if (read.next) this.resumeAt.set(principal, { cursor: read.next, height: resume?.height ?? heightNow });
    const knownById = new Map(known.recent.map((activity) => [activity.txId, activity]));
    const newlyMined = read.items.filter((activity) => !knownById.has(activity.txId));
    // Mined again after a re-org (at another height, or with another outcome): the alerts judge it again
    // (settleReorg), as they would have heard it live. Only with a re-org's evidence: one this read found, or the
    // transaction now higher than it was (a re-org found while the app was closed); a lagging replica's older answer
    // is no news.
    const minedAgain = read.items.filter((activity) => {
      const before = knownById.get(activity.txId);
      if (!before) return false;
      const higher = (activity.blockHeight ?? -1) > (before.blockHeight ?? Infinity);
      const changed =
        before.blockHeight !== activity.blockHeight ||
        before.status !== activity.status ||
        before.statusDetail !== activity.statusDetail;
      return higher || (reorgFrom !== null && changed);
    });
    const mined = [...newlyMined, ...minedAgain];
    // A re-org: known transactions the node no longer lists, compared by identity over what was read. A resumed
    // catch-up read only older pages: the newer history it skipped proves nothing gone.
    const lost =
      read.unchanged || resume
        ? []
        : lostInReorg(reorg.knownBefore(principal, known.recent), read.items, read.coveredAbove);
    const balance = this.balanceChanged(known, mined, lost) ? await this.readBalance(principal) : undefined;
    const stx = balance?.stx ?? known.stx;
    // A newly watched address shows what it has pending at once: one more request, only when the node says there is
    // something pending (or cannot say: an older node). A contract's pending calls never show in its STX balance.
    const maybePending = stx?.pending !== false || principal.includes('.');
    const mempool = firstSync && maybePending ? await rest.mempoolOf(principal) : null;
    const pending = mempool?.items ?? null;
    // What a first sync reads pending is history, but the node may have had it only since the address was added: the
    // feed's word of it, sent before this answer, is handled first, so that it is told as news, not taken for history.
    if (firstSync && pending && pending.length > 0) await this.deps.caughtUp();
    // Only the newest pages were read: the rest, older, were pending before the watch as much as these.
    const pendingBefore =
      mempool && !mempool.complete && pending!.length > 0 ? Math.min(...pending!.map((a) => a.time)) : null;
    // Told mined by the feed since the read began (mined again, or in a newer block): not gone, whatever was read.
    const heard = this.heardLive.end(principal);
    const gone = lost.filter((activity) => !heard.has(activity.txId));
    const superseded = supersededBy(known.pending, read.items);
    const stxBefore = this.deps.book.get(principal)?.stx ?? null;
    const after = this.store(principal, read, gone, pending, balance, {
      syncedHeight: read.complete ? (resume?.height ?? heightNow ?? syncedHeight) : syncedHeight,
    });
    const { network } = node;
    // A re-org (announced, or found by what it took): the alerts also revert what the bounded history let go of.
    if ((reorgFrom !== null || gone.length > 0) && !read.unchanged)
      sink.reverted(network, principal, gone, {
        coveredAbove: read.coveredAbove,
        present: new Set([...read.items.map((activity) => activity.txId), ...heard]),
        forkFrom: reorgFrom ?? Math.min(...gone.map((activity) => activity.blockHeight ?? Infinity)),
      });
    if (gone.length > 0 && after.holdings) void this.deps.holdings.load(principal);
    if (after.stx && after.stx !== stxBefore) this.deps.balance(principal, stxBefore, after.stx);
    if (firstSync) {
      sink.baseline(network, principal, [...after.recent, ...after.pending], heightNow, pendingBefore);
      if (pending && pending.length > 0) this.deps.pending.followAll();
      return;
    }
    if (superseded.length > 0) sink.activities(network, principal, superseded, 'sync');
    // Mined again, but told by the feed since the read began: the feed's word is the newer.
    const told = [...newlyMined, ...minedAgain.filter((activity) => !heard.has(activity.txId))];
    if (told.length > 0) this.deps.tell(principal, told, 'sync');
    if (!read.complete) this.deps.readOnSoon();
  }

  /**
   * The balance as the node answers it, with the one known when the answer came; undefined when the feed told one
   * while it was asked for: the feed is a second connection, and what it told then may be newer than the answer.
   */
  private async readBalance(principal: string): Promise<BalanceRead | undefined> {
    const asked = this.deps.book.get(principal)?.stx ?? null;
    const stx = await this.deps.rest.stxBalance(principal);
    const knownThen = this.deps.book.get(principal)?.stx ?? null;
    return knownThen === asked ? { stx, knownThen } : undefined;
  }

  /** Whether the balance must be read again: something moved, a re-org took something, or a lock ran out. */
  private balanceChanged(known: AddressSnapshot, mined: readonly Activity[], lost: readonly Activity[]): boolean {
    const tip = this.deps.tip();
    const unlockDue =
      known.stx?.unlockBurnHeight != null && tip !== null && tip.burnHeight >= known.stx.unlockBurnHeight;
    return mined.length > 0 || lost.length > 0 || !known.stx || unlockDue;
  }

  /** The snapshot with what was read merged in: the history, what the re-org took out, the pending, the balance. */
  private store(
    principal: string,
    read: HistoryRead,
    lost: readonly Activity[],
    pending: readonly Activity[] | null,
    balance: BalanceRead | undefined,
    synced: { syncedHeight: number | null },
  ): AddressSnapshot {
    const lostIds = new Set(lost.map((activity) => activity.txId));
    return this.deps.book.update(principal, this.deps.node.network, (snapshot) => {
      const kept =
        lostIds.size > 0 ? { ...snapshot, recent: snapshot.recent.filter((a) => !lostIds.has(a.txId)) } : snapshot;
      const merged = mergeMined(kept, read.items);
      return {
        ...(pending
          ? withPending(merged, [
              ...merged.pending,
              ...pending.filter((a) => !merged.pending.some((b) => b.txId === a.txId)),
            ])
          : merged),
        // A balance the feed told after the one read (or when none was read) is the newest there is.
        stx: balance && (snapshot.stx ?? null) === balance.knownThen ? balance.stx : snapshot.stx,
        syncedAt: this.deps.now(),
        // A catch-up cut short by the page budget has not read down to where the last one stopped.
        syncedHeight: synced.syncedHeight,
      };
    });
  }
}
