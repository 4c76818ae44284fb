import type {
  AddressStxBalanceResponse,
  AddressTransactionWithTransfers,
  Block,
  MempoolTransaction,
  Transaction,
} from '@stacks/blockchain-api-client';
import type { BlockRecord, TxEntry } from './chain.ts';
import type { Ledger } from './ledger.ts';
import { apiPostConditions } from './post-conditions.ts';

/** The v1 shapes of the Stacks Blockchain API, as its REST routes and Socket.IO topics send them. */
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
const NO_MICROBLOCK = { microblock_hash: '0x', microblock_sequence: 2147483647, microblock_canonical: true } as const;
const NO_COST = {
  execution_cost_read_count: 0,
  execution_cost_read_length: 0,
  execution_cost_runtime: 0,
  execution_cost_write_count: 0,
  execution_cost_write_length: 0,
} as const;

function common(entry: TxEntry) {
  const { signed } = entry;
  return {
    tx_id: signed.txId,
    nonce: signed.nonce,
    fee_rate: signed.fee.toString(),
    sender_address: signed.sender,
    sponsored: signed.sponsor !== null,
    // As the API: the sponsor's fields only on a sponsored transaction.
    ...(signed.sponsor ? { sponsor_address: signed.sponsor.address, sponsor_nonce: signed.sponsor.nonce } : {}),
    post_condition_mode: 'allow' as const,
    post_conditions: apiPostConditions(signed.sender, signed.intent),
    anchor_mode: 'any' as const,
  };
}

function payload(entry: TxEntry) {
  const { signed } = entry;
  if (signed.intent.kind === 'stx') {
    return {
      tx_type: 'token_transfer' as const,
      token_transfer: {
        recipient_address: signed.intent.recipient,
        amount: signed.intent.amount.toString(),
        memo: signed.memoHex ?? '0x',
      },
    };
  }
  const call = signed.contractCall!;
  return {
    tx_type: 'contract_call' as const,
    contract_call: {
      contract_id: call.contractId,
      function_name: call.functionName,
      function_signature: call.functionSignature,
      function_args: call.args.map((arg) => ({ ...arg })),
    },
  };
}

export function mempoolTransaction(entry: TxEntry): MempoolTransaction {
  const status = entry.state.kind === 'dropped' ? entry.state.status : 'pending';
  return {
    ...common(entry),
    tx_status: status,
    replaced_by_tx_id: entry.state.kind === 'dropped' ? entry.state.replacedBy : null,
    receipt_time: entry.receiptTime,
    receipt_time_iso: iso(entry.receiptTime),
    ...payload(entry),
  } satisfies MempoolTransaction;
}

type TransactionEvent = Transaction['events'][number];

/** A Clarity `uint` as the API shows a value: serialized hex and its representation. */
export const clarityUint = (value: bigint) => ({
  hex: `0x01${value.toString(16).padStart(32, '0')}`,
  repr: `u${value}`,
});

/** The asset events of a mined transaction, as `/extended/v1/tx/{id}` lists them. */
function events(entry: TxEntry): TransactionEvent[] {
  if (entry.state.kind !== 'confirmed') return [];
  const tx_id = entry.signed.txId;
  return entry.state.outcome.events.map((event, event_index): TransactionEvent => {
    switch (event.type) {
      case 'stx_transfer':
        return {
          event_index,
          event_type: 'stx_asset',
          tx_id,
          asset: {
            asset_event_type: 'transfer',
            sender: event.sender,
            recipient: event.recipient,
            amount: event.amount.toString(),
            ...(entry.signed.memoHex ? { memo: entry.signed.memoHex } : {}),
          },
        };
      case 'ft_transfer':
      case 'nft_transfer': {
        // As the real API: a mint's sender and a burn's recipient are empty strings.
        const transfer = {
          asset_event_type:
            event.sender === null
              ? ('mint' as const)
              : event.recipient === null
                ? ('burn' as const)
                : ('transfer' as const),
          asset_id: event.asset,
          sender: event.sender ?? '',
          recipient: event.recipient ?? '',
        };
        return event.type === 'ft_transfer'
          ? {
              event_index,
              event_type: 'fungible_token_asset',
              tx_id,
              asset: { ...transfer, amount: event.amount.toString() },
            }
          : {
              event_index,
              event_type: 'non_fungible_token_asset',
              tx_id,
              asset: { ...transfer, value: clarityUint(event.id) },
            };
      }
      case 'stx_lock':
        return {
          event_index,
          event_type: 'stx_lock',
          tx_id,
          stx_lock_event: {
            locked_amount: event.amount.toString(),
            unlock_height: event.unlockBurnHeight,
            locked_address: event.address,
          },
        };
    }
  });
}

/** A contract's prints (pox-5 tells its calls so), after the asset events, as `smart_contract_log` events. */
function printEvents(entry: TxEntry): TransactionEvent[] {
  if (entry.state.kind !== 'confirmed') return [];
  const { events: assets, logs = [] } = entry.state.outcome;
  return logs.map((log, i) => ({
    event_index: assets.length + i,
    event_type: 'smart_contract_log',
    tx_id: entry.signed.txId,
    contract_log: { contract_id: log.contract, topic: 'print', value: { hex: log.hex, repr: log.repr } },
  }));
}

/**
 * A mined transaction; `canonical` turns false when a re-org orphans its block. REST lists its events; the
 * Socket.IO payloads never do (`events: []`, as on the real API).
 */
export function transaction(entry: TxEntry, parentBurnTime: number, options: { withEvents: boolean }): Transaction {
  if (entry.state.kind !== 'confirmed') throw new Error(`${entry.signed.txId} is not mined`);
  const { block, txIndex, outcome } = entry.state;
  return {
    ...common(entry),
    is_unanchored: false,
    block_hash: block.hash,
    parent_block_hash: block.parentHash,
    block_height: block.height,
    block_time: block.time,
    block_time_iso: iso(block.time),
    burn_block_height: block.burnHeight,
    burn_block_time: block.time,
    burn_block_time_iso: iso(block.time),
    parent_burn_block_time: parentBurnTime,
    parent_burn_block_time_iso: parentBurnTime ? iso(parentBurnTime) : '',
    canonical: block.canonical,
    tx_index: txIndex,
    tx_status: outcome.status,
    tx_result: { ...outcome.result },
    ...NO_MICROBLOCK,
    event_count: outcome.events.length + (outcome.logs?.length ?? 0),
    events: options.withEvents ? [...events(entry), ...printEvents(entry)] : [],
    ...NO_COST,
    vm_error: null,
    ...payload(entry),
  } satisfies Transaction;
}

export function stxTransfers(entry: TxEntry): { amount: string; sender: string; recipient: string }[] {
  if (entry.state.kind !== 'confirmed') return [];
  return entry.state.outcome.events.flatMap((event) =>
    event.type === 'stx_transfer'
      ? [{ amount: event.amount.toString(), sender: event.sender, recipient: event.recipient }]
      : [],
  );
}

/** `address-transaction` and `transactions_with_transfers`: the tx and the principal's STX movements in it. */
export function withTransfers(
  entry: TxEntry,
  principal: string,
  parentBurnTime: number,
): AddressTransactionWithTransfers {
  const transfers = stxTransfers(entry);
  const sent = transfers.filter((t) => t.sender === principal).reduce((sum, t) => sum + BigInt(t.amount), 0n);
  const received = transfers.filter((t) => t.recipient === principal).reduce((sum, t) => sum + BigInt(t.amount), 0n);
  // As API 9.0.2 counts it (parseTxsWithAssetTransfers): the fee in the sender's `stx_sent`, even when a sponsor paid it.
  const fee = entry.signed.sender === principal ? entry.signed.fee : 0n;
  return {
    tx: transaction(entry, parentBurnTime, { withEvents: false }),
    stx_sent: (sent + fee).toString(),
    stx_received: received.toString(),
    stx_transfers: transfers,
  } satisfies AddressTransactionWithTransfers;
}

/** The v1 STX balance, as `address-stx-balance` sends it (no block height, no pending fields). */
export function stxBalance(ledger: Ledger, principal: string): AddressStxBalanceResponse {
  const account = ledger.stx.get(principal);
  return {
    balance: (account?.balance ?? 0n).toString(),
    total_sent: (account?.totalSent ?? 0n).toString(),
    total_received: (account?.totalReceived ?? 0n).toString(),
    total_fees_sent: (account?.totalFeesSent ?? 0n).toString(),
    total_miner_rewards_received: '0',
    lock_tx_id: account?.lockTxId ?? '',
    locked: (account?.locked ?? 0n).toString(),
    lock_height: account?.lockHeight ?? 0,
    burnchain_lock_height: account?.burnLockHeight ?? 0,
    burnchain_unlock_height: account?.burnUnlockHeight ?? 0,
  } satisfies AddressStxBalanceResponse;
}

/** The fields a block shows in every shape: the feed's and v1's `block`, and v2's. */
function blockFields(record: BlockRecord) {
  return {
    canonical: record.canonical,
    height: record.height,
    hash: record.hash,
    block_time: record.time,
    block_time_iso: iso(record.time),
    tenure_height: record.height,
    index_block_hash: record.indexHash,
    parent_block_hash: record.parentHash,
    burn_block_time: record.time,
    burn_block_time_iso: iso(record.time),
    burn_block_hash: record.burnHash,
    burn_block_height: record.burnHeight,
    miner_txid: `0x${'0'.repeat(64)}`,
    ...NO_COST,
  };
}

/** `/extended/v2/blocks/{height_or_hash}`: the block without its transaction list, their count instead. */
export function blockV2(record: BlockRecord) {
  return { ...blockFields(record), parent_index_block_hash: record.parentIndexHash, tx_count: record.txIds.length };
}

export function block(record: BlockRecord): Block {
  return {
    ...blockFields(record),
    parent_microblock_hash: '',
    parent_microblock_sequence: -1,
    txs: [...record.txIds],
    microblocks_accepted: [],
    microblocks_streamed: [],
    microblock_tx_count: {},
  } satisfies Block;
}
