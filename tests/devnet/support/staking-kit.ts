import { afterEach, expect } from 'vitest';
import type { DevnetNode } from '../../../mocks/devnet/node.ts';
import { violations, type Schema } from './staking-schemas.ts';

export interface OpenDevnet {
  readonly url: string;
  readonly node: DevnetNode;
  close(): Promise<void>;
}

export type Json = Record<string, unknown> & { results?: Json[] };
type Rewards = { btc: { accrued: string; claimed: string; claimable: string } };
/** The staking summary as the API schema (checked separately with `fits`) describes it. */
interface StakingSummary {
  stx: { locked: string; rewards: Rewards };
  bonds: { count: number; locked: { btc: string; stx: string }; rewards: Rewards };
}
export const STX = 1_000_000n;

/**
 * Sessions on a fresh devnet per test (closed after it): the calls a test makes to it, all over HTTP as a client
 * would, and pox-5.clar's cycle arithmetic from what the devnet reports.
 */
export function stakingSessions(open: () => Promise<OpenDevnet>) {
  let devnet: OpenDevnet | null = null;
  afterEach(async () => {
    await devnet?.close();
    devnet = null;
  });

  return async function start() {
    devnet = await open();
    const { url, node } = devnet;
    const [alice, bob, carol, dave] = node.chain.accounts.people.map((person) => person.address) as [
      string,
      string,
      string,
      string,
    ];
    const get = async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(`${url}${path}`, { headers });
      return {
        status: response.status,
        etag: response.headers.get('etag'),
        body: (await response.json().catch(() => null)) as Json,
      };
    };
    const post = async (path: string, body: unknown = {}) => {
      const response = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const status = async () => (await get('/devnet/staking')).body as Record<string, number | string | boolean>;
    const mine = (count = 1) => post('/devnet/mine', { count });
    /** pox-5.clar's cycle arithmetic, from the cycle length and boundaries the devnet reports. */
    const cycles = async () => {
      const s = await status();
      const length = Number(s['cycle_length']);
      const start = (cycle: number) => Number(s['next_cycle_burn_height']) + (cycle - Number(s['cycle']) - 1) * length;
      return {
        cycle: Number(s['cycle']),
        burnHeight: Number(s['burn_height']),
        length,
        start,
        unlockHeight: (c: number) => start(c) + length / 2,
      };
    };
    const mineToBurnHeight = async (target: number) => {
      let { burnHeight } = await cycles();
      while (burnHeight < target) {
        await mine(Math.min(100, target - burnHeight));
        burnHeight = (await cycles()).burnHeight;
      }
    };
    const call = async (path: string, body: unknown) => {
      const answer = await post(path, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      await mine();
      const tx = (await get(`/extended/v1/tx/${String(answer.body['tx_id'])}`)).body;
      return tx as Json & { events: Json[] };
    };
    const staking = async (who: string) =>
      (await get(`/extended/v3/principals/${who}/staking`)).body as unknown as StakingSummary;
    return { url, node, alice, bob, carol, dave, get, post, status, mine, cycles, mineToBurnHeight, call, staking };
  };
}

export const fits = (value: unknown, schema: Schema) => expect(violations(value, schema)).toEqual([]);
/** A pox-5 print of the transaction, by topic: its Clarity representation. */
export const printed = (tx: { events: Json[] }, topic: string): string => {
  const log = tx.events.find(
    (event) =>
      event['event_type'] === 'smart_contract_log' &&
      String((event['contract_log'] as Json)['contract_id']).endsWith('.pox-5') &&
      String(((event['contract_log'] as Json)['value'] as Json)['repr']).includes(`(topic "${topic}")`),
  );
  expect(log, `a pox-5 print "${topic}"`).toBeDefined();
  return String(((log!['contract_log'] as Json)['value'] as Json)['repr']);
};
export const field = (repr: string, name: string) => Number(new RegExp(`\\(${name} u(\\d+)\\)`).exec(repr)?.[1]);
