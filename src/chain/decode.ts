import type { AssetChange, StxBalance, TokenMetadata } from '../domain/state/snapshot.ts';
import { amount, integer, list, object, optional, PayloadError, quantity, text, txId } from './payload.ts';

/** From node payloads (v3, v1 fallback, Socket.IO) to the domain's snapshot types, validated on the way. */
export type Field = { value: unknown; path: string };

export interface ChainTip {
  readonly height: number;
  readonly burnHeight: number;
  /** The block's index hash, where the node says it: what a later look at the same height compares with. */
  readonly indexHash?: string;
}

const BLOCK_HASH = /^0x[0-9a-f]{64}$/;

/** An index block hash when present and well formed; absent otherwise (it only ever saves requests). */
const indexHashOf = (field: Field): { indexHash?: string } =>
  typeof field.value === 'string' && BLOCK_HASH.test(field.value) ? { indexHash: field.value } : {};

export function decodeStatus(value: unknown): ChainTip {
  const tip = object(object(value, '$').at('chain_tip').value, '$.chain_tip');
  return {
    height: integer(tip.at('block_height')),
    burnHeight: integer(tip.at('burn_block_height')),
    ...indexHashOf(tip.at('index_block_hash')),
  };
}

/** A block as the feed announces it, or as `/extended/v2/blocks/{height}` answers. */
export function decodeBlock(value: unknown): ChainTip {
  const block = object(value, '$');
  return {
    height: integer(block.at('height')),
    burnHeight: integer(block.at('burn_block_height')),
    ...indexHashOf(block.at('index_block_hash')),
  };
}

const wholeOrUndefined = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;

/** v3 `balances/stx`. */
export function decodeStxV3(value: unknown): StxBalance {
  const body = object(value, '$');
  const lockedField = body.at('locked');
  const locked = optional(lockedField, (field) => {
    const lock = object(field.value, field.path);
    return {
      amount: quantity(lock.at('amount')),
      unlock: integer(lock.at('burn_unlock_height')),
      // Read for the staking words only: a node that spells them otherwise still gives its balance.
      since: wholeOrUndefined(lock.at('burn_lock_height').value),
      pox: wholeOrUndefined(lock.at('pox_version').value),
    };
  });
  const total = quantity(body.at('balance'));
  const mempool = body.at('mempool').value;
  return {
    total,
    available: quantity(body.at('available')),
    locked: locked?.amount ?? 0n,
    unlockBurnHeight: locked?.unlock ?? null,
    ...(locked?.since === undefined ? {} : { lockBurnHeight: locked.since }),
    ...(locked?.pox === undefined ? {} : { poxVersion: locked.pox }),
    pending: mempool !== null && mempool !== undefined,
  };
}

/** v1 `address/{p}/stx` and the `address-stx-balance` topic: no `available`, derived from balance and locked. */
export function decodeStxV1(value: unknown): StxBalance {
  const body = object(value, '$');
  const total = quantity(body.at('balance'));
  const locked = quantity(body.at('locked'));
  if (locked > total) throw new PayloadError('$.locked', `at most the balance (${total})`, String(locked));
  const unlock = integer(body.at('burnchain_unlock_height'));
  return { total, available: total - locked, locked, unlockBurnHeight: locked > 0n ? unlock : null };
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

/** v3 `balances/ft`: balances by asset identifier. */
export function decodeFtBalances(value: unknown): Map<string, bigint> {
  const page = decodeCursorPage(value, (field) => {
    const row = object(field.value, field.path);
    return [text(row.at('asset_identifier')), quantity(row.at('balance'))] as const;
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
    const balance = quantity(entry.at('balance'));
    if (balance > 0n) tokens.set(asset, balance);
  }
  for (const [asset, entry] of entriesOf(body.at('non_fungible_tokens'))) {
    const count = quantity(entry.at('count'));
    if (count > 0n) nfts.set(asset, count > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(count));
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
    return { txId: txId(row.at('tx_id')), type, identifier: type === 'stx' ? '' : text(asset.at('identifier')), net };
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

/**
 * Free text a token's author chose, as it may be shown: without control and format characters (a bidi override
 * would reorder the line around it, a zero-width one hide a difference), cut to `max` characters. Refused when
 * nothing is left.
 */
function shownText(field: Field, max: number): string {
  const shown = text(field)
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, max);
  if (!shown) throw new PayloadError(field.path, 'visible text', field.value);
  return shown;
}

/** The token metadata API's answer: name, symbol and decimals (0 to 18). */
export function decodeTokenMetadata(value: unknown): TokenMetadata {
  const body = object(value, '$');
  const decimals = integer(body.at('decimals'));
  if (decimals < 0 || decimals > 18)
    throw new PayloadError('$.decimals', 'a number of decimals from 0 to 18', decimals);
  return { name: shownText(body.at('name'), 64), symbol: shownText(body.at('symbol'), 16), decimals };
}
