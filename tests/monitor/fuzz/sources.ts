/**
 * The answers the fuzz suites mutate: recorded real payloads (tests/fixtures/real-api) and the devnet's own answers
 * after some traffic, each with the decoder the app runs on it.
 */
import { readFileSync } from 'node:fs';
import {
  decodeBalanceChanges,
  decodeBalancesV1,
  decodeBlock,
  decodeCursorPage,
  decodeFtBalances,
  decodeNftCounts,
  decodeOffsetPage,
  decodeStatus,
  decodeStxV1,
  decodeStxV3,
  decodeTokenMetadata,
} from '../../../src/chain/decode.ts';
import {
  decodeMempoolV1,
  decodeTransactionV3,
  decodeWithTransfers,
  mempoolParties,
} from '../../../src/chain/decode-activity.ts';
import { decodeEvents } from '../../../src/chain/decode-events.ts';
import { decodeEventParties, decodeRecentTx } from '../../../src/chain/decode-recent.ts';
import { DevnetNode } from '../../../mocks/devnet/node.ts';
import type { Json } from './mutate.ts';

export interface Source {
  readonly name: string;
  readonly value: Json;
  readonly decode: (value: unknown) => unknown;
}

const FIXTURES = new URL('../../fixtures/real-api/', import.meta.url);
const fixture = (name: string): Json => JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as Json;
const realtime = fixture('realtime-samples') as Record<string, Json[]>;
const sample = (topic: string): Json => realtime[topic]!.at(-1)!;

const field = (value: unknown) => ({ value, path: '$' });

export function recordedSources(): Source[] {
  const mempoolTx = sample('mempool');
  const principal = String((mempoolTx as Record<string, Json>)['sender_address']);
  return [
    { name: 'real /extended', value: fixture('extended'), decode: decodeStatus },
    { name: 'real block event', value: sample('block'), decode: decodeBlock },
    { name: 'real v1 address stx', value: fixture('extended_v1_address_stx'), decode: decodeStxV1 },
    { name: 'real address-stx-balance event', value: sample('address-stx-balance'), decode: decodeStxV1 },
    { name: 'real v1 balances', value: fixture('extended_v1_address_balances'), decode: decodeBalancesV1 },
    {
      name: 'real v1 transactions_with_transfers',
      value: fixture('extended_v1_address_transactions_with_transfers'),
      decode: (value) => decodeOffsetPage(value, (row) => decodeWithTransfers(row, principal)),
    },
    {
      name: 'real address-transaction event (transfer)',
      value: sample('address-transaction/token_transfer'),
      decode: (value) => decodeWithTransfers(field(value), principal),
    },
    {
      name: 'real address-transaction event (contract call)',
      value: sample('address-transaction/contract_call'),
      decode: (value) => decodeWithTransfers(field(value), principal),
    },
    {
      name: 'real v1 mempool',
      value: fixture('extended_v1_address_mempool'),
      decode: (value) => decodeOffsetPage(value, (row) => decodeMempoolV1(row, principal)),
    },
    {
      name: 'real mempool event',
      value: mempoolTx,
      decode: (value) => [mempoolParties(field(value)), decodeMempoolV1(field(value), principal)],
    },
    {
      name: 'real v1 tx events',
      value: fixture('extended_v1_tx_token_transfer'),
      decode: (value) => decodeEvents({ value: (value as Record<string, unknown> | null)?.['events'], path: '$' }),
    },
    {
      name: 'real v1 tx list (the resume scout)',
      value: fixture('extended_v1_tx_limit_50'),
      decode: (value) => decodeOffsetPage(value, decodeRecentTx),
    },
    {
      name: 'real v2 block (the resume anchor)',
      value: (fixture('extended_v2_blocks_limit_5') as { results: Json[] }).results[0]!,
      decode: decodeBlock,
    },
    {
      name: 'real tx events, as the scout reads their parties',
      value: fixture('extended_v1_tx_token_transfer'),
      decode: (value) =>
        decodeEventParties({ value: (value as Record<string, unknown> | null)?.['events'], path: '$' }),
    },
    {
      name: 'token metadata',
      value: { name: 'Wrapped Gold', symbol: 'WGOLD', decimals: 6, total_supply: '1000000' },
      decode: decodeTokenMetadata,
    },
  ];
}

/** The devnet's v3 answers for an account with transfers, tokens and an NFT behind it. */
export async function devnetSources(): Promise<Source[]> {
  const devnet = new DevnetNode({ blockMs: null, seed: 'fuzz-sources' });
  const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address) as [string, string];
  const get = async (path: string): Promise<Json> => {
    const answer = await devnet.handle({ method: 'GET', url: new URL(`http://devnet.test${path}`), headers: {} });
    return JSON.parse(String(answer.body)) as Json;
  };
  const post = (path: string, body: unknown) =>
    devnet.handle({
      method: 'POST',
      url: new URL(`http://devnet.test${path}`),
      headers: {},
      body: JSON.stringify(body),
    });
  await post('/devnet/transfer', { sender: alice, recipient: bob, amount: '1234', memo: 'fuzz me' });
  await post('/devnet/mine', {});
  const v3 = `/extended/v3/principals/${alice}`;
  const history = await get(`${v3}/transactions?limit=20`);
  const txIds = ((history as { results: { transaction: { tx_id: string } }[] }).results ?? []).map(
    (row) => row.transaction.tx_id,
  );
  const sources: Source[] = [
    {
      name: 'devnet v3 transactions',
      value: history,
      decode: (value) => decodeCursorPage(value, (row) => decodeTransactionV3(row, alice)),
    },
    { name: 'devnet v3 balances/stx', value: await get(`${v3}/balances/stx`), decode: decodeStxV3 },
    { name: 'devnet v3 balances/ft', value: await get(`${v3}/balances/ft`), decode: decodeFtBalances },
    { name: 'devnet v3 balances/nft', value: await get(`${v3}/balances/nft`), decode: decodeNftCounts },
    {
      name: 'devnet v3 balance-changes',
      value: await get(`${v3}/balance-changes?${txIds.map((id) => `tx_id=${id}`).join('&')}`),
      decode: decodeBalanceChanges,
    },
  ];
  devnet.close();
  return sources;
}
