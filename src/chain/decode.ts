import type { Activity, ActivityStatus, AssetChange, StxBalance, TokenMetadata } from '../domain/snapshot.ts';
import { amount, integer, list, object, optional, PayloadError, text } from './payload.ts';

/** From node payloads (v3, v1 fallback, Socket.IO) to the domain's snapshot types, validated on the way. */
type Field = { value: unknown; path: string };
const root = (value: unknown, path = '$'): Field => ({ value, path });

export interface ChainTip {
  readonly height: number;
  readonly burnHeight: number;
}

export function decodeStatus(value: unknown): ChainTip {
  const tip = object(object(value, '$').at('chain_tip').value, '$.chain_tip');
  return { height: integer(tip.at('block_height')), burnHeight: integer(tip.at('burn_block_height')) };
}

export function decodeBlock(value: unknown): ChainTip {
  const block = object(value, '$');
  return { height: integer(block.at('height')), burnHeight: integer(block.at('burn_block_height')) };
}

/** v3 `balances/stx`. */
export function decodeStxV3(value: unknown): StxBalance {
  const body = object(value, '$');
  const lockedField = body.at('locked');
  const locked = optional(lockedField, (field) => {
    const lock = object(field.value, field.path);
    return { amount: amount(lock.at('amount')), unlock: integer(lock.at('burn_unlock_height')) };
  });
  const total = amount(body.at('balance'));
  return {
    total,
    available: amount(body.at('available')),
    locked: locked?.amount ?? 0n,
    unlockBurnHeight: locked?.unlock ?? null,
  };
}

/** v1 `address/{p}/stx` and the `address-stx-balance` topic: no `available`, derived from balance and locked. */
export function decodeStxV1(value: unknown): StxBalance {
  const body = object(value, '$');
  const total = amount(body.at('balance'));
  const locked = amount(body.at('locked'));
  const unlock = integer(body.at('burnchain_unlock_height'));
  return { total, available: total - locked, locked, unlockBurnHeight: locked > 0n ? unlock : null };
}

/** `abort_by_response`, `abort_by_post_condition`, `problematic_skipped` and any status yet unknown count as failed. */
const statusOf = (status: string): ActivityStatus =>
  status === 'success'
    ? 'success'
    : status === 'pending'
      ? 'pending'
      : status.startsWith('dropped')
        ? 'dropped'
        : 'failed';

const kindOf = (type: string): Activity['kind'] =>
  type === 'token_transfer' || type === 'contract_call' ? type : 'other';

/** A memo as plain text: the bytes read as UTF-8, padding and control characters removed. */
export function memoText(hex: string | null): string | null {
  if (!hex || !/^0x([0-9a-fA-F]{2})*$/.test(hex)) return null;
  const bytes = new Uint8Array((hex.slice(2).match(/../g) ?? []).map((byte) => parseInt(byte, 16)));
  const decoded = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes)
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim();
  return decoded || null;
}

/** One row of v3 `transactions`, as seen by `principal`. */
export function decodeTransactionV3(field: Field, principal: string): Activity {
  const row = object(field.value, field.path);
  const tx = object(row.at('transaction').value, `${field.path}.transaction`);
  const type = text(tx.at('type'));
  const sender = text(object(tx.at('sender').value, `${field.path}.transaction.sender`).at('address'));
  const block = object(tx.at('block').value, `${field.path}.transaction.block`);
  const changes = object(
    object(row.at('balance_changes').value, `${field.path}.balance_changes`).at('stx').value,
    `${field.path}.balance_changes.stx`,
  );
  const common = {
    txId: text(tx.at('tx_id')),
    status: statusOf(text(tx.at('status'))),
    kind: kindOf(type),
    stxNet: amount(changes.at('net')),
    fee: amount(tx.at('fee_rate')),
    blockHeight: integer(block.at('height')),
    time: integer(block.at('time')),
  };
  if (type === 'token_transfer') {
    const transfer = object(tx.at('token_transfer').value, `${field.path}.transaction.token_transfer`);
    const recipient = text(transfer.at('recipient'));
    const memo = optional(transfer.at('memo'), (memoField) => text(object(memoField.value, memoField.path).at('hex')));
    return {
      ...common,
      counterparty: sender === principal ? recipient : sender,
      memo: memoText(memo),
      contractCall: null,
    };
  }
  if (type === 'contract_call') {
    const call = object(tx.at('contract_call').value, `${field.path}.transaction.contract_call`);
    const contractCall = { contractId: text(call.at('contract_id')), functionName: text(call.at('function_name')) };
    return {
      ...common,
      counterparty: sender === principal ? contractCall.contractId : sender,
      memo: null,
      contractCall,
    };
  }
  return { ...common, counterparty: sender === principal ? null : sender, memo: null, contractCall: null };
}

/** A v1 transaction (mined or pending) as seen by `principal`, with its STX movement for it. */
function decodeV1Transaction(field: Field, principal: string, stxNet: bigint | null): Activity {
  const tx = object(field.value, field.path);
  const type = text(tx.at('tx_type'));
  const sender = text(tx.at('sender_address'));
  const status = statusOf(text(tx.at('tx_status')));
  const fee = amount(tx.at('fee_rate'));
  const pending = status === 'pending' || status === 'dropped';
  let counterparty: string | null = null;
  let memo: string | null = null;
  let contractCall: Activity['contractCall'] = null;
  let net = stxNet ?? (sender === principal ? -fee : 0n);
  if (type === 'token_transfer') {
    const transfer = object(tx.at('token_transfer').value, `${field.path}.token_transfer`);
    const recipient = text(transfer.at('recipient_address'));
    counterparty = sender === principal ? recipient : sender;
    memo = memoText(optional(transfer.at('memo'), text));
    if (stxNet === null) {
      const moved = amount(transfer.at('amount'));
      net = (recipient === principal ? moved : 0n) - (sender === principal ? moved + fee : 0n);
    }
  } else if (type === 'contract_call') {
    const call = object(tx.at('contract_call').value, `${field.path}.contract_call`);
    contractCall = { contractId: text(call.at('contract_id')), functionName: text(call.at('function_name')) };
    counterparty = sender === principal ? contractCall.contractId : sender;
  }
  return {
    txId: text(tx.at('tx_id')),
    status,
    kind: kindOf(type),
    counterparty,
    stxNet: net,
    fee,
    memo,
    contractCall,
    blockHeight: pending ? null : integer(tx.at('block_height')),
    time: pending ? integer(tx.at('receipt_time')) : integer(tx.at('block_time')),
  };
}

/** The `address-transaction` topic and v1 `transactions_with_transfers` rows: `{ tx, stx_sent, stx_received }`. */
export function decodeWithTransfers(field: Field, principal: string): Activity {
  const row = object(field.value, field.path);
  const net = amount(row.at('stx_received')) - amount(row.at('stx_sent'));
  return decodeV1Transaction(row.at('tx'), principal, net);
}

/** Who a v1 mempool transaction involves, as the API indexes it: sender, STX recipient, called contract. */
export function mempoolParties(field: Field): string[] {
  const tx = object(field.value, field.path);
  const type = text(tx.at('tx_type'));
  const parties = [text(tx.at('sender_address'))];
  if (type === 'token_transfer')
    parties.push(text(object(tx.at('token_transfer').value, `${field.path}.token_transfer`).at('recipient_address')));
  if (type === 'contract_call')
    parties.push(text(object(tx.at('contract_call').value, `${field.path}.contract_call`).at('contract_id')));
  return parties;
}

/** A v1 mempool transaction (the `mempool` topic, v1 mempool lists) as seen by one of its parties. */
export const decodeMempoolV1 = (field: Field, principal: string): Activity =>
  decodeV1Transaction(field, principal, null);

/** A row of v3 `mempool/transactions`. */
export function decodeMempoolV3(field: Field, principal: string): Activity {
  const tx = object(field.value, field.path);
  const type = text(tx.at('type'));
  const sender = text(object(tx.at('sender').value, `${field.path}.sender`).at('address'));
  const fee = amount(tx.at('fee_rate'));
  const common = {
    txId: text(tx.at('tx_id')),
    status: statusOf(text(tx.at('status'))),
    kind: kindOf(type),
    fee,
    blockHeight: null,
    time: integer(tx.at('receipt_time')),
  };
  if (type === 'token_transfer') {
    const transfer = object(tx.at('token_transfer').value, `${field.path}.token_transfer`);
    const recipient = text(transfer.at('recipient'));
    const moved = amount(transfer.at('amount'));
    const memo = optional(transfer.at('memo'), (memoField) => text(object(memoField.value, memoField.path).at('hex')));
    const stxNet = (recipient === principal ? moved : 0n) - (sender === principal ? moved + fee : 0n);
    return {
      ...common,
      counterparty: sender === principal ? recipient : sender,
      stxNet,
      memo: memoText(memo),
      contractCall: null,
    };
  }
  const call = type === 'contract_call' ? object(tx.at('contract_call').value, `${field.path}.contract_call`) : null;
  const contractCall = call
    ? { contractId: text(call.at('contract_id')), functionName: text(call.at('function_name')) }
    : null;
  return {
    ...common,
    counterparty: sender === principal ? (contractCall?.contractId ?? null) : sender,
    stxNet: sender === principal ? -fee : 0n,
    memo: null,
    contractCall,
  };
}

export interface Page<T> {
  readonly items: T[];
  readonly next: string | null;
  readonly total: number;
}

export function decodeCursorPage<T>(value: unknown, item: (field: Field) => T): Page<T> {
  const body = object(value, '$');
  const cursor = object(body.at('cursor').value, '$.cursor');
  return {
    items: list(body.at('results')).map(item),
    next: optional(cursor.at('next'), text),
    total: integer(body.at('total')),
  };
}

export function decodeOffsetPage<T>(value: unknown, item: (field: Field) => T): Page<T> & { offset: number } {
  const body = object(value, '$');
  const offset = integer(body.at('offset'));
  const items = list(body.at('results')).map(item);
  const total = integer(body.at('total'));
  return { items, next: offset + items.length < total ? String(offset + items.length) : null, total, offset };
}

export { root };

/** v3 `balances/ft`: balances by asset identifier. */
export function decodeFtBalances(value: unknown): Map<string, bigint> {
  const page = decodeCursorPage(value, (field) => {
    const row = object(field.value, field.path);
    return [text(row.at('asset_identifier')), amount(row.at('balance'))] as const;
  });
  return new Map(page.items.filter(([, balance]) => balance > 0n));
}

/** v3 `balances/nft`: how many of each collection. */
export function decodeNftCounts(value: unknown): Map<string, number> {
  const page = decodeCursorPage(value, (field) => text(object(field.value, field.path).at('asset_identifier')));
  const counts = new Map<string, number>();
  for (const asset of page.items) counts.set(asset, (counts.get(asset) ?? 0) + 1);
  return counts;
}

/** v1 `balances` of an older node: tokens and NFT counts in one answer. */
export function decodeBalancesV1(value: unknown): { tokens: Map<string, bigint>; nfts: Map<string, number> } {
  const body = object(value, '$');
  const tokens = new Map<string, bigint>();
  const nfts = new Map<string, number>();
  const entriesOf = (field: Field) => {
    object(field.value, field.path);
    return Object.entries(field.value as Record<string, unknown>).map(
      ([asset, entry]) => [asset, object(entry, `${field.path}.${asset}`)] as const,
    );
  };
  for (const [asset, entry] of entriesOf(body.at('fungible_tokens'))) {
    const balance = amount(entry.at('balance'));
    if (balance > 0n) tokens.set(asset, balance);
  }
  for (const [asset, entry] of entriesOf(body.at('non_fungible_tokens'))) {
    const count = amount(entry.at('count'));
    if (count > 0n) nfts.set(asset, Number(count));
  }
  return { tokens, nfts };
}

/** v3 `balance-changes`: the token and NFT movements of each transaction (STX rows are left out). */
export function decodeBalanceChanges(value: unknown): Map<string, AssetChange[]> {
  const page = decodeCursorPage(value, (field) => {
    const row = object(field.value, field.path);
    const asset = object(row.at('asset').value, `${field.path}.asset`);
    const type = text(asset.at('type'));
    const net = amount(object(row.at('balance_change').value, `${field.path}.balance_change`).at('net'));
    return { txId: text(row.at('tx_id')), type, identifier: type === 'stx' ? '' : text(asset.at('identifier')), net };
  });
  const byTx = new Map<string, AssetChange[]>();
  for (const row of page.items) {
    if (row.type !== 'ft' && row.type !== 'nft') continue;
    byTx.set(row.txId, [
      ...(byTx.get(row.txId) ?? []),
      { type: row.type, assetIdentifier: row.identifier, net: row.net },
    ]);
  }
  return byTx;
}

/** The token metadata API's answer: name, symbol and decimals (0 to 18). */
export function decodeTokenMetadata(value: unknown): TokenMetadata {
  const body = object(value, '$');
  const decimals = integer(body.at('decimals'));
  if (decimals < 0 || decimals > 18)
    throw new PayloadError('$.decimals', 'a number of decimals from 0 to 18', decimals);
  return { name: text(body.at('name')).slice(0, 64), symbol: text(body.at('symbol')).slice(0, 16), decimals };
}
