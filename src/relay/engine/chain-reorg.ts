import { readTransactions, type NodeGet } from '../../chain/chain-reads.ts';
import { decodeMempoolV1 } from '../../chain/decode-activity.ts';
import type { NodeConfig } from '../../chain/networks.ts';
import { errorMessage } from '../../domain/error-message.ts';
import { markForked } from '../../domain/state/fork-mark.ts';
import { addPending } from '../../domain/state/snapshot.ts';
import type { ActivitySink, SnapshotPort } from '../../monitor/ports.ts';
import type { StakingKeeper } from '../../monitor/staking-keeper.ts';
import type { TxDecoder } from './tx-decoder.ts';

export interface ReorgDeps {
  readonly node: NodeConfig;
  readonly get: NodeGet;
  readonly book: SnapshotPort;
  /** The alerts, in the order things were learned. */
  readonly told: ActivitySink;
  readonly staking: StakingKeeper | null;
  readonly decode: TxDecoder;
  /** Follows the fate of every watched pending transaction (those back in the mempool among them). */
  readonly followPending: () => void;
  readonly report: (problem: string) => void;
}

/**
 * The blocks at `heights` left the chain: what they told each of `principals` is taken back, and what went back to
 * the mempool is pending again (read once for them all: its `mempool` event may have come before this re-org was read).
 */
export async function takeBackOrphaned(
  deps: ReorgDeps,
  principals: Iterable<string>,
  heights: readonly number[],
): Promise<void> {
  const { book, node, told } = deps;
  const from = heights[0];
  if (from === undefined) return;
  const orphaned = new Map<string, string[]>();
  for (const principal of principals) {
    const snapshot = book.get(principal);
    if (!snapshot) continue;
    const gone = snapshot.recent.filter((activity) => (activity.blockHeight ?? -1) >= from);
    // A principal baselined on an orphaned block: what the new fork mines there may be new to it.
    const floorAbove = (snapshot.syncedHeight ?? -1) >= from;
    if (gone.length === 0 && !floorAbove) continue;
    book.update(principal, node.network, (known) =>
      markForked({ ...known, recent: known.recent.filter((activity) => (activity.blockHeight ?? -1) < from) }, from),
    );
    told.forked(node.network, principal, from);
    told.reverted(node.network, principal, gone);
    for (const { txId } of gone) orphaned.set(txId, [...(orphaned.get(txId) ?? []), principal]);
  }
  // The new fork's blocks are taken next: each staker is read again at the first of them, whatever it was read at.
  deps.staking?.forgetReads();
  if (orphaned.size > 0) await backInMempool(deps, orphaned);
}

/** Orphaned transactions the node holds as pending again, told so to the principals they were mined for. */
async function backInMempool(deps: ReorgDeps, orphaned: ReadonlyMap<string, readonly string[]>): Promise<void> {
  const { book, node, told } = deps;
  try {
    for (const [txId, tx] of await readTransactions(deps.get, [...orphaned.keys()])) {
      if (tx.blockHash !== null) continue;
      for (const principal of orphaned.get(txId) ?? []) {
        const [activity] = deps.decode(txId, tx.raw, principal, decodeMempoolV1);
        if (activity?.status !== 'pending') continue;
        book.update(principal, node.network, (snapshot) => addPending(snapshot, activity));
        told.activities(node.network, principal, [activity], 'live');
      }
    }
    deps.followPending();
  } catch (error) {
    // Their `mempool` events still say it, unless they came first; the new fork's blocks tell any mined again.
    deps.report(`Could not read what a re-org on ${node.name} sent back to the mempool: ${errorMessage(error)}`);
  }
}
