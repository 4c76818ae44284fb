import { decodeMempoolV1, mempoolParties } from '../chain/decode-activity.ts';
import type { NodeConfig } from '../chain/networks.ts';
import { object, text } from '../chain/payload.ts';

import type { StacksRestClient } from '../chain/rest-client.ts';
import { addPending, withPending, type Activity } from '../domain/state/snapshot.ts';
import type { ActivitySink } from './ports.ts';
import type { SnapshotPort } from './ports.ts';

/** How many pending transactions gone from the node's mempool list a reconcile asks about, one request each. */
const MAX_VANISHED_CHECKS = 20;

/**
 * The watched principals' pending transactions: from the `mempool` topic and the node's mempool list, and what
 * becomes of them. A mined one arrives through the address topics and the history; a dropped one (replaced,
 * expired) is said only on the transaction's own topic, so each pending transaction's topic is followed.
 */
export class PendingKeeper {
  constructor(
    private readonly deps: {
      readonly node: NodeConfig;
      readonly rest: StacksRestClient;
      readonly book: SnapshotPort;
      readonly sink?: ActivitySink;
      /** The principals watched now. */
      readonly principals: () => ReadonlySet<string>;
      /** Where the transaction topics to follow go (the feed, once open); resolves to those newly subscribed. */
      readonly follow: (txIds: readonly string[]) => Promise<readonly string[]> | void;
    },
  ) {}

  /**
   * The node's mempool list replaces what each principal synced before had pending. A pending transaction no longer
   * in it, and not mined, is asked about: dropped meanwhile (told), or only beyond the list's first page (kept).
   */
  async sync(): Promise<void> {
    const { rest, book, node, sink } = this.deps;
    // Those watched, their first sync stored, as the list is asked for. One whose first sync is still to store has its
    // pending read by that sync, which alone tells what was pending before the watch (history) from what came since
    // (news, told): handed this list first, it would take everything listed for history. One added while the list
    // comes, likewise, and this list may predate a drop that sync never saw. What such a principal has pending that
    // its sync missed came since: the feed tells it, or, if the socket dropped meanwhile, the reconnect's reconcile.
    const asked = new Set([...this.deps.principals()].filter((principal) => book.get(principal)?.syncedAt != null));
    const { results: raw, total } = await rest.mempool();
    const principals = [...this.deps.principals()].filter((principal) => asked.has(principal));
    const pendingBefore = new Map(principals.map((principal) => [principal, book.get(principal)?.pending ?? []]));
    const pendingBy = new Map<string, Activity[]>();
    // The node's list is one page: a busier mempool is asked about per watched principal instead.
    if (total > raw.length) {
      for (const principal of principals) pendingBy.set(principal, (await rest.mempoolOf(principal)).items);
    } else
      raw.forEach((value, index) => {
        const field = { value, path: `$.results[${index}]` };
        for (const party of this.watchedParties(field)) {
          const list = pendingBy.get(party);
          if (list) list.push(decodeMempoolV1(field, party));
          else pendingBy.set(party, [decodeMempoolV1(field, party)]);
        }
      });
    const vanished = new Set<string>();
    for (const principal of principals) {
      const after = book.update(principal, node.network, (snapshot) =>
        withPending(snapshot, pendingBy.get(principal) ?? []),
      );
      const still = new Set([...after.recent, ...after.pending].map((activity) => activity.txId));
      for (const activity of pendingBefore.get(principal) ?? [])
        if (!still.has(activity.txId)) vanished.add(activity.txId);
      if (after.pending.length > 0) sink?.activities(node.network, principal, after.pending, 'sync');
    }
    // Already gone from the snapshots (the list replaced them): whether each party had it pending says who to tell.
    const hadPending = (party: string, txId: string) =>
      (pendingBefore.get(party) ?? []).some((activity) => activity.txId === txId);
    for (const txId of [...vanished].slice(0, MAX_VANISHED_CHECKS))
      this.apply(await rest.transaction(txId), 'sync', (party) => hadPending(party, txId));
    this.followAll();
  }

  /**
   * A transaction entering the mempool. A mined one is re-announced on `mempool` still saying pending: addPending
   * ignores what is known, and the sink is told only what the snapshot took.
   */
  onMempool(payload: unknown): void {
    const field = { value: payload, path: '$' };
    const { book, node, sink } = this.deps;
    let added = false;
    for (const party of this.watchedParties(field)) {
      const activity = decodeMempoolV1(field, party);
      const before = book.get(party);
      if (book.update(party, node.network, (snapshot) => addPending(snapshot, activity)) === before) continue;
      sink?.activities(node.network, party, [activity], 'live');
      added = true;
    }
    if (added) this.followAll();
  }

  /** A followed transaction's topic: its payload must be that transaction. */
  onTransaction(txId: string, payload: unknown): void {
    const sent = text(object(payload, '$').at('tx_id'));
    if (sent !== txId) throw new Error(`the topic of ${txId} sent ${sent}`);
    this.apply(payload, 'live');
    this.followAll();
  }

  /**
   * Follows the topics of exactly the pending transactions the snapshots hold now. A drop said before its topic was
   * subscribed is found by the next reconcile, which asks about every pending transaction gone from the mempool.
   */
  followAll(): void {
    const txIds = new Set<string>();
    const watched = this.deps.principals();
    for (const principal of this.deps.book.withPending?.() ?? watched) {
      if (!watched.has(principal)) continue;
      for (const activity of this.deps.book.get(principal)?.pending ?? []) txIds.add(activity.txId);
    }
    void this.deps.follow([...txIds]);
  }

  /**
   * A transaction's state from the node: a dropped one leaves the pending lists and is told to the parties that had
   * it pending (`hadPending`, else those whose list it leaves now); a pending one stays.
   */
  private apply(payload: unknown, source: 'live' | 'sync', hadPending?: (party: string) => boolean): void {
    if (payload === null) return;
    const field = { value: payload, path: '$' };
    const { book, node, sink } = this.deps;
    for (const party of this.watchedParties(field)) {
      const activity = decodeMempoolV1(field, party);
      if (activity.status === 'pending') book.update(party, node.network, (snapshot) => addPending(snapshot, activity));
      if (activity.status !== 'dropped') continue;
      const before = book.get(party);
      const after = book.update(party, node.network, (snapshot) =>
        withPending(
          snapshot,
          snapshot.pending.filter((known) => known.txId !== activity.txId),
        ),
      );
      if (hadPending ? hadPending(party) : after !== before) sink?.activities(node.network, party, [activity], source);
    }
  }

  private watchedParties(field: { value: unknown; path: string }): string[] {
    const principals = this.deps.principals();
    return [...new Set(mempoolParties(field))].filter((party) => principals.has(party));
  }
}
