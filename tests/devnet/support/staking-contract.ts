import { afterEach, expect, it } from 'vitest';
import type { DevnetNode } from '../../../mocks/devnet/node.ts';
import {
  BOND,
  BOND_ALLOWLIST_ENTRY,
  BOND_REGISTRATION,
  BOND_REGISTRATION_SUMMARY,
  BOND_SUMMARY,
  CYCLE_SIGNER,
  PRINCIPAL_BOND_POSITION,
  PRINCIPAL_STAKING_SUMMARY,
  SIGNER_STAKER,
  STAKING_SIGNER,
  STAKING_SIGNER_DETAIL,
  paginated,
  violations,
  type Schema,
} from './staking-schemas.ts';

export interface OpenDevnet {
  readonly url: string;
  readonly node: DevnetNode;
  close(): Promise<void>;
}

type Json = Record<string, unknown> & { results?: Json[] };
type Rewards = { btc: { accrued: string; claimed: string; claimable: string } };
/** The staking summary as the API schema (checked separately with `fits`) describes it. */
interface StakingSummary {
  stx: { locked: string; rewards: Rewards };
  bonds: { count: number; locked: { btc: string; stx: string }; rewards: Rewards };
}
const STX = 1_000_000n;
const PRECISION = 10n ** 18n;

/** The PoX-5 staking rules and routes, proven against a fresh devnet per test (the real server, or MSW). */
export function stakingContract(open: () => Promise<OpenDevnet>): void {
  let devnet: OpenDevnet | null = null;
  afterEach(async () => {
    await devnet?.close();
    devnet = null;
  });

  /** A fresh devnet and the calls a test makes to it, all over HTTP as a client would. */
  async function start() {
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
  }

  const fits = (value: unknown, schema: Schema) => expect(violations(value, schema)).toEqual([]);
  /** A pox-5 print of the transaction, by topic: its Clarity representation. */
  const printed = (tx: { events: Json[] }, topic: string): string => {
    const log = tx.events.find(
      (event) =>
        event['event_type'] === 'smart_contract_log' &&
        String((event['contract_log'] as Json)['contract_id']).endsWith('.pox-5') &&
        String(((event['contract_log'] as Json)['value'] as Json)['repr']).includes(`(topic "${topic}")`),
    );
    expect(log, `a pox-5 print "${topic}"`).toBeDefined();
    return String(((log!['contract_log'] as Json)['value'] as Json)['repr']);
  };
  const field = (repr: string, name: string) => Number(new RegExp(`\\(${name} u(\\d+)\\)`).exec(repr)?.[1]);

  it('a stake locks the STX from the next cycle to halfway through its unlock cycle, in the API shape and the balances', async () => {
    const d = await start();
    const before = await d.cycles();
    const tx = await d.call('/devnet/stake', { staker: d.alice, amount: String(60_000n * STX), cycles: 2 });
    expect(tx).toMatchObject({
      tx_status: 'success',
      contract_call: { contract_id: 'ST000000000000000000002AMW42H.pox-5', function_name: 'stake' },
    });
    const unlockCycle = before.cycle + 1 + 2;
    const unlockHeight = before.unlockHeight(unlockCycle);
    const print = printed(tx, 'stake');
    expect(field(print, 'amount-ustx')).toBe(60_000_000_000);
    expect(field(print, 'first-reward-cycle')).toBe(before.cycle + 1);
    expect(field(print, 'unlock-cycle')).toBe(unlockCycle);
    expect(field(print, 'unlock-burn-height')).toBe(unlockHeight);
    const summary = await d.staking(d.alice);
    fits(summary, PRINCIPAL_STAKING_SUMMARY);
    expect(summary.stx.locked).toBe(String(60_000n * STX));
    const v1 = (await d.get(`/extended/v1/address/${d.alice}/stx`)).body;
    expect(v1).toMatchObject({
      locked: String(60_000n * STX),
      burnchain_unlock_height: unlockHeight,
      lock_tx_id: tx['tx_id'],
    });
    const v3 = (await d.get(`/extended/v3/principals/${d.alice}/balances/stx`)).body;
    expect(v3['locked']).toMatchObject({
      amount: String(60_000n * STX),
      pox_version: 5,
      burn_unlock_height: unlockHeight,
    });
  });

  it('the lock ends at its burn height with no transaction of the address, and the principal ETag changes then', async () => {
    const d = await start();
    const { unlockHeight, cycle } = await d.cycles();
    await d.call('/devnet/stake', { staker: d.bob, amount: String(55_000n * STX), cycles: 1 });
    const height = unlockHeight(cycle + 2);
    await d.mineToBurnHeight(height - 1);
    const txCount = ((await d.get(`/extended/v3/principals/${d.bob}/transactions`)).body['total'] as number) ?? 0;
    const locked = await d.get(`/extended/v3/principals/${d.bob}/balances/stx`);
    expect(locked.body['locked']).not.toBeNull();
    expect(
      (await d.get(`/extended/v3/principals/${d.bob}/balances/stx`, { 'if-none-match': locked.etag! })).status,
    ).toBe(304);
    await d.mine();
    const unlocked = await d.get(`/extended/v3/principals/${d.bob}/balances/stx`);
    expect(unlocked.body['locked']).toBeNull();
    expect(unlocked.body['available']).toBe(unlocked.body['balance']);
    expect(unlocked.etag).not.toBe(locked.etag);
    expect(
      (await d.get(`/extended/v3/principals/${d.bob}/balances/stx`, { 'if-none-match': locked.etag! })).status,
    ).toBe(200);
    expect((await d.get(`/extended/v1/address/${d.bob}/stx`)).body).toMatchObject({
      locked: '0',
      burnchain_unlock_height: 0,
    });
    expect((await d.staking(d.bob)).stx.locked).toBe('0');
    expect((await d.get(`/extended/v3/principals/${d.bob}/transactions`)).body['total']).toBe(txCount);
  });

  it('sBTC rewards accrue per cycle, shared by the cycle’s stakers by weight, and stay claimable until claimed', async () => {
    const d = await start();
    const { cycle } = await d.cycles();
    const pool = BigInt(String((await d.status())['reward_sats_per_cycle']));
    const amounts = { [d.alice]: 60_000n * STX, [d.bob]: 90_000n * STX };
    for (const [staker, amount] of Object.entries(amounts))
      expect((await d.post('/devnet/stake', { staker, amount: String(amount), cycles: 3 })).status).toBe(200);
    await d.mine();
    await d.post('/devnet/cycles', { count: 1 });
    expect((await d.staking(d.alice)).stx.rewards.btc.accrued).toBe('0');
    await d.post('/devnet/cycles', { count: 1 });
    expect((await d.cycles()).cycle).toBe(cycle + 2);
    const total = amounts[d.alice]! + amounts[d.bob]!;
    const perUstx = (pool * PRECISION) / total;
    for (const [staker, amount] of Object.entries(amounts)) {
      const share = ((amount * perUstx) / PRECISION).toString();
      expect((await d.staking(staker)).stx.rewards.btc).toEqual({ accrued: share, claimed: '0', claimable: share });
    }
    await d.post('/devnet/cycles', { count: 3 });
    const three = ((amounts[d.alice]! * perUstx) / PRECISION) * 3n;
    expect((await d.staking(d.alice)).stx.rewards.btc.claimable).toBe(three.toString());
  });

  it('a claim pays the claimable sBTC to the staker once, and then there is nothing to claim', async () => {
    const d = await start();
    await d.call('/devnet/stake', { staker: d.alice, amount: String(60_000n * STX), cycles: 2 });
    await d.post('/devnet/cycles', { count: 2 });
    const { claimable } = (await d.staking(d.alice)).stx.rewards.btc;
    expect(BigInt(claimable)).toBeGreaterThan(0n);
    const sbtc = String((await d.status())['sbtc']);
    const tx = await d.call('/devnet/claim', { staker: d.alice });
    expect(tx['tx_status']).toBe('success');
    const paid = tx.events.filter((e) => e['event_type'] === 'fungible_token_asset').map((e) => e['asset'] as Json);
    expect(paid).toContainEqual(expect.objectContaining({ asset_id: sbtc, recipient: d.alice, amount: claimable }));
    expect(field(printed(tx, 'claim-staker-rewards-for-signer'), 'rewards-claimed')).toBe(Number(claimable));
    expect((await d.staking(d.alice)).stx.rewards.btc).toEqual({
      accrued: claimable,
      claimed: claimable,
      claimable: '0',
    });
    const balances = (await d.get(`/extended/v3/principals/${d.alice}/balances/ft`)).body.results!;
    expect(balances).toContainEqual({ asset_identifier: sbtc, balance: claimable });
    const again = await d.call('/devnet/claim', { staker: d.alice });
    expect(again).toMatchObject({ tx_status: 'abort_by_response', tx_result: { repr: '(err u32)' } });
    const metadata = (await d.get(`/metadata/v1/ft/${sbtc.split('::')[0]}`)).body;
    expect(metadata).toMatchObject({ name: 'sBTC', symbol: 'sBTC', decimals: 8 });
  });

  it('paused rewards refuse claims while they go on accruing; resumed, the claim goes through', async () => {
    const d = await start();
    await d.call('/devnet/stake', { staker: d.alice, amount: String(60_000n * STX), cycles: 4 });
    await d.post('/devnet/cycles', { count: 2 });
    const pause = await d.call('/devnet/staking/pause', {});
    expect(pause).toMatchObject({ tx_status: 'success', contract_call: { function_name: 'pause-rewards' } });
    printed(pause, 'pause-rewards');
    expect((await d.status())['rewards_paused']).toBe(true);
    const refused = await d.call('/devnet/claim', { staker: d.alice });
    expect(refused).toMatchObject({ tx_status: 'abort_by_response', tx_result: { repr: '(err u53)' } });
    const accrued = BigInt((await d.staking(d.alice)).stx.rewards.btc.accrued);
    await d.post('/devnet/cycles', { count: 1 });
    expect(BigInt((await d.staking(d.alice)).stx.rewards.btc.accrued)).toBeGreaterThan(accrued);
    expect((await d.post('/devnet/staking/resume')).status).toBe(200);
    expect((await d.call('/devnet/claim', { staker: d.alice }))['tx_status']).toBe('success');
  });

  it('an unstake lands at the next cycle: no rewards after it, the STX unlock halfway through that cycle', async () => {
    const d = await start();
    await d.call('/devnet/stake', { staker: d.alice, amount: String(60_000n * STX), cycles: 5 });
    await d.post('/devnet/cycles', { count: 1 });
    const { cycle, unlockHeight } = await d.cycles();
    const tx = await d.call('/devnet/unstake', { staker: d.alice });
    expect(tx['tx_status']).toBe('success');
    expect(field(printed(tx, 'unstake'), 'unlock-cycle')).toBe(cycle + 1);
    expect(field(printed(tx, 'unstake'), 'unlock-burn-height')).toBe(unlockHeight(cycle + 1));
    expect((await d.get(`/extended/v1/address/${d.alice}/stx`)).body['burnchain_unlock_height']).toBe(
      unlockHeight(cycle + 1),
    );
    await d.post('/devnet/cycles', { count: 1 });
    const afterOwnCycle = (await d.staking(d.alice)).stx.rewards.btc.accrued;
    expect(BigInt(afterOwnCycle)).toBeGreaterThan(0n);
    await d.post('/devnet/cycles', { count: 2 });
    expect((await d.staking(d.alice)).stx).toMatchObject({ locked: '0', rewards: { btc: { accrued: afterOwnCycle } } });
  });

  it('refuses what pox-5 refuses: a second position, an unstake in the prepare phase, nothing to update', async () => {
    const d = await start();
    expect((await d.call('/devnet/unstake', { staker: d.alice }))['tx_result']).toEqual({
      hex: expect.any(String),
      repr: '(err u27)',
    });
    await d.call('/devnet/stake', { staker: d.alice, amount: String(60_000n * STX), cycles: 3 });
    expect(
      (await d.call('/devnet/stake', { staker: d.alice, amount: String(STX), cycles: 1 }))['tx_result'],
    ).toMatchObject({ repr: '(err u19)' });
    const { cycle, start: startOf } = await d.cycles();
    await d.mineToBurnHeight(startOf(cycle + 1) - 2);
    expect((await d.call('/devnet/unstake', { staker: d.alice }))['tx_result']).toMatchObject({ repr: '(err u28)' });
    const refusals: [string, unknown, string][] = [
      [
        '/devnet/stake',
        { staker: d.alice, amount: 60000 },
        '“amount” must be a whole number of base units as a string',
      ],
      ['/devnet/stake', { staker: d.alice, amount: '1', cycles: 97 }, '“cycles” must be a whole number from 1 to 96'],
      ['/devnet/claim', { staker: 'st1alice' }, '“staker”'],
      ['/devnet/cycles', { count: 21 }, '“count” must be a whole number from 1 to 20'],
      ['/devnet/staking/bond', { allowlist: [] }, '“allowlist” must be a list of { staker, maxSats }'],
      [
        '/devnet/staking/bond-register',
        { staker: d.bob, index: 2, ustx: '1', type: 'btc', sats: '1' },
        '“type” must be "l1"',
      ],
      ['/devnet/problematic', { tx_id: '0x00' }, '“tx_id” must name a pending transaction'],
    ];
    for (const [path, body, message] of refusals) {
      const bad = await d.post(path, body);
      expect(bad.status, path).toBe(400);
      expect(String(bad.body['error']), path).toContain(message);
    }
  });

  it('stake-update raises the amount and extends the lock by whole cycles', async () => {
    const d = await start();
    const { cycle, unlockHeight } = await d.cycles();
    await d.call('/devnet/stake', { staker: d.alice, amount: String(60_000n * STX), cycles: 2 });
    const tx = await d.call('/devnet/stake-update', {
      staker: d.alice,
      amountIncrease: String(5_000n * STX),
      cyclesToExtend: 2,
    });
    const print = printed(tx, 'stake-update');
    expect(field(print, 'amount-ustx')).toBe(65_000_000_000);
    expect(field(print, 'unlock-cycle')).toBe(cycle + 5);
    expect((await d.staking(d.alice)).stx.locked).toBe(String(65_000n * STX));
    expect((await d.get(`/extended/v1/address/${d.alice}/stx`)).body['burnchain_unlock_height']).toBe(
      unlockHeight(cycle + 5),
    );
  });

  it('bonds: enrolled before the bond opens, running, early exits of BTC and sBTC, unlocked at the end; the bond routes in the API shapes', async () => {
    const d = await start();
    const sbtc = String((await d.status())['sbtc']);
    const deployer = d.node.chain.accounts.deployer.address;
    await d.call('/devnet/ft-transfer', { sender: deployer, recipient: d.dave, asset: sbtc, amount: '30000000' });
    const carolFree = (await d.get(`/extended/v1/address/${d.carol}/stx`)).body['burnchain_unlock_height'] as number;
    await d.mineToBurnHeight(carolFree);
    const setup = await d.call('/devnet/staking/bond', {
      allowlist: [
        { staker: d.bob, maxSats: '50000000' },
        { staker: d.carol, maxSats: '40000000' },
        { staker: d.dave, maxSats: '30000000' },
      ],
    });
    expect(setup['tx_status']).toBe('success');
    const index = field(printed(setup, 'setup-bond'), 'bond-index');
    for (const [staker, type, sats] of [
      [d.bob, 'l1', '50000000'],
      [d.carol, 'l1', '40000000'],
      [d.dave, 'l2', '30000000'],
    ] as const) {
      const tx = await d.call('/devnet/staking/bond-register', {
        staker,
        index,
        ustx: String(20_000n * STX),
        type,
        sats,
      });
      expect(tx['tx_status'], `${type} registration`).toBe('success');
    }
    const bond = await d.get(`/extended/v3/staking/bonds/${index}`);
    fits(bond.body, BOND);
    expect(bond.body).toMatchObject({
      index,
      status: 'upcoming',
      registrations: { allowed_count: 3, registered_count: 3 },
    });
    expect(bond.body['balances']).toEqual({
      locked: { btc: '120000000', stx: String(60_000n * STX) },
      paid_out: { btc: '0' },
    });
    fits((await d.get('/extended/v3/staking/bonds')).body, paginated(BOND_SUMMARY));
    fits((await d.get(`/extended/v3/staking/bonds/${index}/allowlist`)).body, paginated(BOND_ALLOWLIST_ENTRY));
    fits((await d.get(`/extended/v3/staking/bonds/${index}/allowlist/${d.bob}`)).body, BOND_ALLOWLIST_ENTRY);
    fits((await d.get(`/extended/v3/staking/bonds/${index}/registrations`)).body, paginated(BOND_REGISTRATION_SUMMARY));
    const l1 = (await d.get(`/extended/v3/staking/bonds/${index}/registrations/${d.bob}`)).body;
    fits(l1, BOND_REGISTRATION);
    expect(l1).toHaveProperty('l1_lockup');
    expect((await d.get(`/extended/v3/staking/bonds/${index}/registrations/${d.dave}`)).body).toHaveProperty(
      'l2_lockup',
    );
    const positions = async (who: string) => (await d.get(`/extended/v3/principals/${who}/staking/bonds`)).body;
    fits(await positions(d.bob), paginated(PRINCIPAL_BOND_POSITION));
    expect((await positions(d.bob)).results![0]).toMatchObject({
      bond_index: index,
      status: 'enrolled',
      active: true,
      locked: { btc: '50000000' },
    });
    expect((await d.get(`/extended/v1/address/${d.bob}/stx`)).body['locked']).toBe(String(20_000n * STX));
    const schedule = bond.body['schedule'] as {
      activation: { bitcoin_height: number };
      unlock: { bitcoin_height: number };
    };
    await d.mineToBurnHeight(schedule.activation.bitcoin_height);
    expect((await positions(d.bob)).results![0]!['status']).toBe('running');
    expect((await d.get(`/extended/v3/staking/bonds/${index}`)).body['status']).toBe('active');
    expect((await d.call('/devnet/staking/early-exit', { staker: d.bob }))['tx_status']).toBe('success');
    expect((await positions(d.bob)).results![0]).toMatchObject({ status: 'early_exit', active: false });
    expect((await d.call('/devnet/staking/early-exit', { staker: d.dave }))['tx_result']).toMatchObject({
      repr: '(err u35)',
    });
    const out = await d.call('/devnet/staking/unstake-sbtc', { staker: d.dave, sats: '30000000' });
    expect(out.events.map((e) => e['asset'])).toContainEqual(
      expect.objectContaining({ asset_id: sbtc, recipient: d.dave, amount: '30000000' }),
    );
    expect((await positions(d.dave)).results![0]).toMatchObject({ status: 'early_exit', locked: { btc: '0' } });
    await d.mineToBurnHeight(schedule.activation.bitcoin_height + 2 * Number((await d.status())['cycle_length']));
    const carol = (await d.staking(d.carol)).bonds;
    expect(carol).toMatchObject({ count: 1, locked: { btc: '40000000', stx: String(20_000n * STX) } });
    expect(BigInt(carol.rewards.btc.claimable)).toBeGreaterThan(0n);
    await d.mineToBurnHeight(schedule.unlock.bitcoin_height);
    expect((await positions(d.carol)).results![0]).toMatchObject({ status: 'unlocked', active: false });
    expect((await d.get(`/extended/v3/staking/bonds/${index}`)).body['status']).toBe('unlocked');
    expect((await d.get(`/extended/v1/address/${d.carol}/stx`)).body['locked']).toBe('0');
  });

  it('signers: the registry, a signer’s stakers by type, and the current cycle’s signer set by the stakes in it', async () => {
    const d = await start();
    const signers = (await d.get('/extended/v3/staking/signers')).body;
    fits(signers, paginated(STAKING_SIGNER));
    const signer = String(signers.results![0]!['signer']);
    fits((await d.get(`/extended/v3/staking/signers/${signer}`)).body, STAKING_SIGNER_DETAIL);
    expect((await d.get('/extended/v3/staking/cycles/current/signers')).body['results']).toEqual([]);
    const amounts = [40_000n * STX, 25_000n * STX];
    await d.post('/devnet/stake', { staker: d.alice, amount: String(amounts[0]), cycles: 2 });
    await d.post('/devnet/stake', { staker: d.bob, amount: String(amounts[1]), cycles: 2 });
    await d.mine();
    const stakers = (await d.get(`/extended/v3/staking/signers/${signer}/stakers`)).body;
    fits(stakers, paginated(SIGNER_STAKER));
    expect(stakers.results).toEqual([d.alice, d.bob].sort().map((staker) => ({ staker, types: ['stx'] })));
    await d.post('/devnet/cycles', { count: 1 });
    const set = (await d.get('/extended/v3/staking/cycles/current/signers')).body;
    fits(set, paginated(CYCLE_SIGNER));
    expect(set.results).toHaveLength(1);
    expect(set.results![0]).toMatchObject({
      staked_stx: { amount: String(amounts[0]! + amounts[1]!), percent: 100 },
      signing_key: signers.results![0]!['signer_key'],
    });
    expect((await d.get('/extended/v3/staking/cycles/142/signers')).status).toBe(400);
    expect((await d.get('/extended/v3/staking/signers/ST000000000000000000002AMW42H')).status).toBe(404);
  });

  it('the staking routes carry the chain tip as ETag, answer 304 until the next block, and check their parameters', async () => {
    const d = await start();
    const first = await d.get(`/extended/v3/principals/${d.alice}/staking`);
    expect(first.etag).toBe(`"${d.node.chain.tip.indexHash}"`);
    expect((await d.get(`/extended/v3/principals/${d.alice}/staking`, { 'if-none-match': first.etag! })).status).toBe(
      304,
    );
    await d.mine();
    expect((await d.get(`/extended/v3/principals/${d.alice}/staking`, { 'if-none-match': first.etag! })).status).toBe(
      200,
    );
    expect((await d.get(`/extended/v3/principals/${d.alice.toLowerCase()}/staking`)).status).toBe(400);
    expect((await d.get('/extended/v3/staking/bonds/first')).status).toBe(400);
    expect((await d.get('/extended/v3/staking/bonds/7')).body).toMatchObject({ message: 'Bond not found' });
    fits((await d.get(`/extended/v3/principals/${d.alice}/staking/bonds`)).body, paginated(PRINCIPAL_BOND_POSITION));
    expect((await d.get('/extended/v3/staking/signers?limit=251')).status).toBe(400);
    expect((await d.get('/extended/v3/staking/bonds?limit=51')).status).toBe(400);
  });

  it('pages bond registrations by their transactions, newest first, as the API does', async () => {
    const d = await start();
    const carolFree = (await d.get(`/extended/v1/address/${d.carol}/stx`)).body['burnchain_unlock_height'] as number;
    await d.mineToBurnHeight(carolFree);
    const stakers = [d.alice, d.bob, d.carol];
    const setup = await d.call('/devnet/staking/bond', {
      allowlist: stakers.map((staker) => ({ staker, maxSats: '1000' })),
    });
    const index = field(printed(setup, 'setup-bond'), 'bond-index');
    for (const staker of stakers)
      await d.call('/devnet/staking/bond-register', { staker, index, ustx: String(STX), type: 'l1', sats: '1000' });
    const first = (await d.get(`/extended/v3/staking/bonds/${index}/registrations?limit=2`)).body;
    expect(first).toMatchObject({ total: 3, limit: 2 });
    expect(first.results!.map((r) => r['staker'])).toEqual([d.carol, d.bob]);
    const cursor = first['cursor'] as { next: string; current: string };
    expect(cursor.current).toMatch(/^\d+:\d+:\d+$/);
    const second = (await d.get(`/extended/v3/staking/bonds/${index}/registrations?limit=2&cursor=${cursor.next}`))
      .body;
    expect(second.results!.map((r) => r['staker'])).toEqual([d.alice]);
    expect((second['cursor'] as Json)['previous']).toBe(cursor.current);
    const allowlist = (await d.get(`/extended/v3/staking/bonds/${index}/allowlist`)).body;
    expect((allowlist['cursor'] as Json)['current']).toBe(`${setup['block_height']}:2147483647:${setup['tx_index']}`);
    expect((await d.get(`/extended/v3/staking/bonds/${index}/registrations?cursor=1:1:1`)).status).toBe(400);
  });

  it('a problematic_skipped transaction is mined with that status, charged its fee, and moves nothing', async () => {
    const d = await start();
    const sent = await d.post('/devnet/transfer', { sender: d.alice, recipient: d.bob, amount: '5000' });
    const bobBefore = (await d.get(`/extended/v1/address/${d.bob}/stx`)).body['balance'];
    expect((await d.post('/devnet/problematic', { tx_id: sent.body['tx_id'] })).status).toBe(200);
    await d.mine();
    const tx = (await d.get(`/extended/v1/tx/${String(sent.body['tx_id'])}`)).body;
    expect(tx).toMatchObject({ tx_status: 'problematic_skipped', canonical: true });
    expect((await d.get(`/extended/v1/address/${d.bob}/stx`)).body['balance']).toBe(bobBefore);
    const v3 = (await d.get(`/extended/v3/principals/${d.alice}/transactions`)).body.results![0]!;
    expect(v3['transaction']).toMatchObject({ tx_id: sent.body['tx_id'], status: 'problematic_skipped' });
    expect((await d.get(`/extended/v3/principals/${d.alice}/nonces`)).body['last_confirmed_nonce']).toBe(tx['nonce']);
    expect((await d.post('/devnet/problematic', { tx_id: sent.body['tx_id'] })).status).toBe(400);
  });

  it('the genesis pox-4 lock stays readable as pox-4, and a re-org rolls a stake back with its block', async () => {
    const d = await start();
    const carol = (await d.get(`/extended/v3/principals/${d.carol}/balances/stx`)).body['locked'] as Json;
    expect(carol).toMatchObject({ pox_version: 4, amount: String(60_000n * STX) });
    const tx = await d.call('/devnet/stake', { staker: d.alice, amount: String(60_000n * STX), cycles: 2 });
    expect((await d.post('/devnet/reorg', { depth: 1 })).status).toBe(200);
    const after = (await d.get(`/extended/v1/tx/${String(tx['tx_id'])}`)).body;
    const canonical = after['tx_status'] === 'success' && after['canonical'] === true;
    expect((await d.staking(d.alice)).stx.locked).toBe(canonical ? String(60_000n * STX) : '0');
  });
}
