import type { OperationResponse } from '@stacks/blockchain-api-client';
import type { DevnetChain, TxEntry } from './chain.ts';
import type { AssetEvent } from './ledger.ts';

/** The v3 principal shapes, typed against the client library's OpenAPI types. */
type V3 = {
  stx: OperationResponse['/extended/v3/principals/{principal}/balances/stx'];
  transactions: OperationResponse['/extended/v3/principals/{principal}/transactions'];
  changes: OperationResponse['/extended/v3/principals/{principal}/balance-changes'];
  mempool: OperationResponse['/extended/v3/principals/{principal}/mempool/transactions'];
  nonces: OperationResponse['/extended/v3/principals/{principal}/nonces'];
  ft: OperationResponse['/extended/v3/principals/{principal}/balances/ft'];
  nft: OperationResponse['/extended/v3/principals/{principal}/balances/nft'];
};
export type V3TransactionItem = V3['transactions']['results'][number];
export type V3BalanceChange = V3['changes']['results'][number];
export type V3MempoolItem = V3['mempool']['results'][number];

export function stxBalanceV3(chain: DevnetChain, principal: string): V3['stx'] {
  const account = chain.state.stx.get(principal);
  const balance = account?.balance ?? 0n;
  const locked = account?.locked ?? 0n;
  let inbound = 0n;
  let outbound = 0n;
  for (const entry of chain.pendingOf(principal)) {
    const { intent, sender, fee } = entry.signed;
    if (sender === principal && intent.kind === 'stx') outbound += intent.amount;
    if (feePayer(entry) === principal) outbound += fee;
    if (intent.kind === 'stx' && intent.recipient === principal) inbound += intent.amount;
  }
  return {
    balance: balance.toString(),
    available: (balance - locked).toString(),
    locked:
      account && locked > 0n
        ? {
            amount: locked.toString(),
            pox_version: chain.state.staking.poxVersionOf(principal, account.lockTxId),
            lock_tx_id: account.lockTxId,
            stacks_lock_height: account.lockHeight,
            burn_lock_height: account.burnLockHeight,
            burn_unlock_height: account.burnUnlockHeight,
          }
        : null,
    mempool:
      inbound > 0n || outbound > 0n
        ? {
            estimated_balance: (balance - locked + inbound - outbound).toString(),
            inbound: inbound.toString(),
            outbound: outbound.toString(),
          }
        : null,
  };
}

const memo = (hex: string | null) =>
  hex ? { hex, repr: Buffer.from(hex.slice(2), 'hex').toString('utf8').replace(/\0+$/, '') } : null;

function typed(entry: TxEntry) {
  const { signed } = entry;
  if (signed.intent.kind === 'stx') {
    return {
      type: 'token_transfer' as const,
      token_transfer: {
        recipient: signed.intent.recipient,
        amount: signed.intent.amount.toString(),
        memo: memo(signed.memoHex),
      },
    };
  }
  const call = signed.contractCall!;
  return {
    type: 'contract_call' as const,
    contract_call: { contract_id: call.contractId, function_name: call.functionName },
  };
}

export const txCursor = (entry: TxEntry): string =>
  entry.state.kind === 'confirmed' ? `${entry.state.block.height}:2147483647:${entry.state.txIndex}` : '';

export function transactionV3(entry: TxEntry, principal: string): V3TransactionItem {
  if (entry.state.kind !== 'confirmed') throw new Error(`${entry.signed.txId} is not mined`);
  const { block, txIndex, outcome } = entry.state;
  const stx = balanceChanges(entry, principal).find((change) => change.asset.type === 'stx');
  const touched = (type: AssetEvent['type']) =>
    outcome.events.some((event) => event.type === type && involves(event, principal));
  return {
    transaction: {
      tx_id: entry.signed.txId,
      sender: { address: entry.signed.sender, nonce: entry.signed.nonce },
      sponsor: entry.signed.sponsor ? { ...entry.signed.sponsor } : null,
      fee_rate: entry.signed.fee.toString(),
      block: {
        height: block.height,
        hash: block.hash,
        index_hash: block.indexHash,
        time: block.time,
        tx_index: txIndex,
      },
      bitcoin_block: { height: block.burnHeight, time: block.time },
      status: outcome.status,
      ...typed(entry),
    },
    involvement:
      entry.signed.sender === principal
        ? 'sender'
        : entry.signed.sponsor?.address === principal
          ? 'sponsor'
          : 'affected',
    balance_changes: {
      stx: stx ? { ...stx.balance_change } : { sent: '0', received: '0', net: '0' },
    },
    affected_balances: {
      stx: feePayer(entry) === principal || touched('stx_transfer') || touched('stx_lock'),
      ft: touched('ft_transfer'),
      nft: touched('nft_transfer'),
    },
  };
}

function involves(event: AssetEvent, principal: string): boolean {
  return event.type === 'stx_lock'
    ? event.address === principal
    : event.sender === principal || event.recipient === principal;
}

/** Who pays a transaction's fee: its sponsor when sponsored, else its sender (API 9's principal_txs do the same). */
const feePayer = (entry: TxEntry): string => entry.signed.sponsor?.address ?? entry.signed.sender;

/** What a transaction did to a principal's balances, one row per asset (the fee counts as STX sent by its payer). */
export function balanceChanges(entry: TxEntry, principal: string): V3BalanceChange[] {
  if (entry.state.kind !== 'confirmed') return [];
  const totals = new Map<string, { type: 'stx' | 'ft' | 'nft'; sent: bigint; received: bigint }>();
  const add = (key: string, type: 'stx' | 'ft' | 'nft', sent: bigint, received: bigint) => {
    const row = totals.get(key) ?? { type, sent: 0n, received: 0n };
    totals.set(key, { type, sent: row.sent + sent, received: row.received + received });
  };
  if (feePayer(entry) === principal) add('stx', 'stx', entry.signed.fee, 0n);
  for (const event of entry.state.outcome.events) {
    if (event.type === 'stx_lock') continue;
    const [key, type, amount] =
      event.type === 'stx_transfer'
        ? (['stx', 'stx', event.amount] as const)
        : event.type === 'ft_transfer'
          ? ([event.asset, 'ft', event.amount] as const)
          : ([event.asset, 'nft', 1n] as const);
    // Only the principal's own movements are its balance changes.
    if (event.sender !== principal && event.recipient !== principal) continue;
    add(key, type, event.sender === principal ? amount : 0n, event.recipient === principal ? amount : 0n);
  }
  return [...totals].map(([identifier, { type, sent, received }]) => ({
    tx_id: entry.signed.txId,
    asset: type === 'stx' ? { type } : { type, identifier },
    balance_change: { sent: sent.toString(), received: received.toString(), net: (received - sent).toString() },
  }));
}

export function mempoolV3(entry: TxEntry): V3MempoolItem {
  return {
    tx_id: entry.signed.txId,
    sender: { address: entry.signed.sender, nonce: entry.signed.nonce },
    sponsor: entry.signed.sponsor ? { ...entry.signed.sponsor } : null,
    fee_rate: entry.signed.fee.toString(),
    receipt_time: entry.receiptTime,
    receipt_block_height: entry.receiptHeight,
    status: entry.state.kind === 'dropped' ? entry.state.status : 'pending',
    ...typed(entry),
  };
}

export function noncesV3(chain: DevnetChain, principal: string): V3['nonces'] {
  const confirmed = chain.state.nonce(principal);
  const pending = chain
    .pending()
    .filter((entry) => entry.signed.sender === principal)
    .map((entry) => entry.signed.nonce)
    .sort((a, b) => a - b);
  const last = pending.at(-1) ?? null;
  const missing: number[] = [];
  if (last !== null) for (let n = confirmed; n < last; n++) if (!pending.includes(n)) missing.push(n);
  return {
    next_nonce: chain.nextNonce(principal),
    last_confirmed_nonce: confirmed > 0 ? confirmed - 1 : null,
    mempool: { last_nonce: last, pending_nonces: pending, missing_nonces: missing },
  };
}
