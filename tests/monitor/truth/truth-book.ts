import { principalsOf, type DevnetChain, type TxEntry } from '../../../mocks/devnet/chain.ts';
import type { Outcome } from '../../../mocks/devnet/ledger.ts';
import { expectedAlerts, type Expected, type Watch } from './oracle.ts';

/**
 * What a truth scenario notes as it drives the devnet, for the oracle: every transaction, who watched when it was
 * submitted, which ones the app could not see pending (submitted and gone during an outage), what re-orgs orphaned.
 * Shared by the engine-level runs and the end-to-end ones.
 */
export class TruthBook {
  readonly watches: Watch[] = [];
  readonly addedAt = new Map<string, number>();
  private readonly allTxs = new Map<string, TxEntry>();
  private readonly watchedAtSubmit = new Map<string, Set<string>>();
  private readonly submittedOffline = new Set<string>();
  private readonly unseenPending = new Set<string>();
  /** Transactions the app was seen holding pending (it had caught up while they were). */
  private readonly heldPending = new Set<string>();
  private readonly orphaned = new Map<string, { outcome: Outcome; principals: string[] }>();
  /** The node's status words of each transaction's failures in blocks a re-org orphaned since, in mined order. */
  private readonly orphanedFailures = new Map<string, string[]>();
  /** Principals the app had caught up with since they were watched (staking read once), and by each submit. */
  private readonly caughtUp = new Set<string>();
  private readonly caughtUpAtSubmit = new Map<string, ReadonlySet<string>>();
  private down = false;
  private readonly stop: () => void;

  /**
   * `delivered`: whether the node's feed told the app the transaction pending: a `mempool` frame of it (sent to whoever
   * listens as it enters the mempool, and again as it is mined) reached the app's socket, and not just as the socket
   * dropped (then it is handed on only at the next connect, after the app may have read it mined). Always, where the
   * feed is not observed.
   */
  constructor(
    private readonly chain: DevnetChain,
    private readonly delivered: (txId: string) => boolean = () => true,
  ) {
    this.stop = chain.subscribe((event) => {
      if (event.type !== 'mempool') return;
      const txId = event.tx.signed.txId;
      this.allTxs.set(txId, event.tx);
      this.watchedAtSubmit.set(txId, new Set(this.addedAt.keys()));
      if (!this.caughtUpAtSubmit.has(txId)) this.caughtUpAtSubmit.set(txId, new Set(this.caughtUp));
      if (this.down) this.submittedOffline.add(txId);
      // Back in the mempool (its block orphaned) with the node up: this time the app can see it pending.
      else this.unseenPending.delete(txId);
    });
  }

  get isDown(): boolean {
    return this.down;
  }

  get transactions(): number {
    return this.allTxs.size;
  }

  /** Notes a principal as watched from now: what the chain lists for it now is its history. */
  watch(principal: string, label: string, at: number): void {
    this.watches.push({
      principal,
      label,
      historyAtAdd: new Set(this.chain.transactionsOf(principal).map((entry) => entry.signed.txId)),
      pendingAtAdd: new Set(this.chain.pendingOf(principal).map((entry) => entry.signed.txId)),
    });
    this.addedAt.set(principal, at);
  }

  /**
   * The app has caught up with every watched principal: its staking of each was read, and it holds what each has
   * pending as the chain does, so what the feed told no one and is still pending was seen pending after all.
   */
  settled(): void {
    for (const principal of this.addedAt.keys()) this.caughtUp.add(principal);
    for (const [txId, entry] of this.allTxs) if (entry.state.kind === 'pending') this.heldPending.add(txId);
  }

  /** Whether the app had caught up with the principal since watching it when the transaction was first submitted. */
  caughtUpWhenSubmitted(txId: string, principal: string): boolean {
    return this.caughtUpAtSubmit.get(txId)?.has(principal) ?? false;
  }

  outageBegins(): void {
    this.down = true;
  }

  /** Once the app has caught up after an outage: what left the mempool meanwhile was never seen pending. */
  outageEnded(): void {
    this.down = false;
    for (const txId of this.submittedOffline)
      if (this.chain.tx(txId)?.state.kind !== 'pending') this.unseenPending.add(txId);
    this.submittedOffline.clear();
  }

  /** Notes what a re-org of `depth` is about to orphan, and who watched it then. */
  beforeReorg(depth: number): void {
    for (let height = this.chain.tip.height - depth + 1; height <= this.chain.tip.height; height++)
      for (const txId of this.chain.block(height)?.txIds ?? []) {
        const entry = this.chain.tx(txId);
        if (entry?.state.kind !== 'confirmed') continue;
        this.orphaned.set(txId, {
          outcome: entry.state.outcome,
          principals: principalsOf(entry).filter((principal) => this.addedAt.has(principal)),
        });
        const { status } = entry.state.outcome;
        if (status !== 'success') this.orphanedFailures.set(txId, [...(this.orphanedFailures.get(txId) ?? []), status]);
      }
  }

  /**
   * How many times the ledger mined the transaction failing otherwise than the failure mined before it: in blocks a
   * re-org orphaned, then since (skipped by the miners as problematic, then refused by the contract). Each is told in
   * other words ("Stake skipped as problematic", "Stake failed"), so "failed" told right after "failed" is another
   * state, at most this many times: the app may meet a new block's failure without ever hearing the revert between.
   */
  failureChanges(txId: string): number {
    const state = this.chain.tx(txId)?.state;
    const statuses = [...(this.orphanedFailures.get(txId) ?? [])];
    if (state?.kind === 'confirmed' && state.outcome.status !== 'success') statuses.push(state.outcome.status);
    return statuses.filter((status, i) => i > 0 && status !== statuses[i - 1]).length;
  }

  expected(): Expected[] {
    return expectedAlerts(
      this.chain,
      this.watches,
      {
        unseenPending: this.unseenPending,
        orphaned: this.orphaned,
        watchedAtSubmit: this.watchedAtSubmit,
        unheard: new Set(
          [...this.allTxs.keys()].filter((txId) => !this.delivered(txId) && !this.heldPending.has(txId)),
        ),
      },
      [...this.allTxs.values()],
    );
  }

  close(): void {
    this.stop();
  }
}
