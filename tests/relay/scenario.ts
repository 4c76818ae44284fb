import { principalsOf, type DevnetChain, type TxEntry } from '../../mocks/devnet/chain.ts';
import type { Outcome } from '../../mocks/devnet/ledger.ts';
import { expectedAlerts, followerPendingParties, type Watch } from '../monitor/truth/oracle.ts';

/** What the tests saw happen on the devnet, for the truth test's oracle. */
export class Observed {
  readonly txs: TxEntry[] = [];
  readonly orphaned = new Map<string, { outcome: Outcome; principals: readonly string[] }>();
  readonly watchedAtSubmit = new Map<string, ReadonlySet<string>>();
  readonly watches: Watch[] = [];
  /** Transactions that went pending and were mined while the relay could not hear the node: never told pending. */
  readonly unseenPending = new Set<string>();

  constructor(private readonly chain: DevnetChain) {}

  /** A principal watched from now on: what the chain lists for it now is history. */
  watch(principal: string): void {
    this.watches.push({
      principal,
      label: '',
      historyAtAdd: new Set(this.chain.transactionsOf(principal).map((entry) => entry.signed.txId)),
      pendingAtAdd: new Set(this.chain.pendingOf(principal).map((entry) => entry.signed.txId)),
    });
  }

  async transfer(sender: string, recipient: string, amount: bigint): Promise<TxEntry> {
    return this.track(await this.chain.submit(sender, { kind: 'stx', recipient, amount, memo: '' }));
  }

  /** A transaction submitted elsewhere (generated traffic), seen pending by what is watched now. */
  track(entry: TxEntry): TxEntry {
    this.txs.push(entry);
    this.watchedAtSubmit.set(entry.signed.txId, new Set(this.watches.map((watch) => watch.principal)));
    return entry;
  }

  /** Re-orgs the tip's `depth` blocks away, remembering what their transactions did. */
  reorg(depth: number): void {
    const height = this.chain.tip.height;
    for (let h = height - depth + 1; h <= height; h++)
      for (const txId of this.chain.block(h)?.txIds ?? []) {
        const entry = this.chain.tx(txId);
        if (entry?.state.kind === 'confirmed')
          this.orphaned.set(txId, { outcome: entry.state.outcome, principals: principalsOf(entry) });
      }
    this.chain.reorg(depth);
  }

  /** The final state each alert must end in: `id → phase`. */
  expected(): Map<string, string> {
    return new Map(this.truth().flatMap((item) => (item.optional ? [] : [[item.id, item.phase] as const])));
  }

  /** Alerts that may be told or not (history orphaned since, see the oracle), and their state if told. */
  optional(): Map<string, string> {
    return new Map(this.truth().flatMap((item) => (item.optional ? [[item.id, item.phase] as const] : [])));
  }

  private truth() {
    return expectedAlerts(
      this.chain,
      this.watches,
      { unseenPending: this.unseenPending, orphaned: this.orphaned, watchedAtSubmit: this.watchedAtSubmit },
      this.txs,
      followerPendingParties,
    );
  }
}
