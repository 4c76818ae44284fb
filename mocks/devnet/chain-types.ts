import type { Outcome } from './ledger.ts';
import type { SignedTx } from './transactions.ts';

/** The devnet chain's records: blocks, transactions in their states, and the events the transports relay. */
export interface BlockRecord {
  readonly height: number;
  readonly hash: string;
  readonly indexHash: string;
  readonly parentHash: string;
  readonly parentIndexHash: string;
  readonly burnHeight: number;
  readonly burnHash: string;
  /** Unix seconds. */
  readonly time: number;
  readonly txIds: readonly string[];
  canonical: boolean;
}

export type DropStatus =
  | 'dropped_replace_by_fee'
  | 'dropped_replace_across_fork'
  | 'dropped_too_expensive'
  | 'dropped_stale_garbage_collect'
  | 'dropped_problematic';

export type TxState =
  | { readonly kind: 'pending' }
  | { readonly kind: 'dropped'; readonly status: DropStatus; readonly replacedBy: string | null }
  | { readonly kind: 'confirmed'; readonly block: BlockRecord; readonly txIndex: number; readonly outcome: Outcome };

export interface TxEntry {
  readonly signed: SignedTx;
  /** Unix seconds. */
  readonly receiptTime: number;
  readonly receiptHeight: number;
  state: TxState;
}

export type ChainEvent =
  | { readonly type: 'mempool'; readonly tx: TxEntry }
  | { readonly type: 'block'; readonly block: BlockRecord; readonly txs: readonly TxEntry[] }
  | { readonly type: 'dropped'; readonly tx: TxEntry }
  | { readonly type: 'reorg'; readonly orphaned: readonly BlockRecord[]; readonly txs: readonly TxEntry[] };
