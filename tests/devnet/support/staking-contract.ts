import { expect, it } from 'vitest';
import { STX, field, fits, printed, stakingSessions, type Json, type OpenDevnet } from './staking-kit.ts';
import { PRINCIPAL_STAKING_SUMMARY } from './staking-schemas.ts';

const PRECISION = 10n ** 18n;

/** The PoX-5 STX-staking rules: stakes, their locks and unlocks, sBTC rewards, claims and pauses. */
export function stakingContract(open: () => Promise<OpenDevnet>): void {
  const start = stakingSessions(open);

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

  it('/v2/pox tells the cycle clock as the core node does, agreeing with where the devnet says the chain is', async () => {
    const d = await start();
    await d.mine(7);
    const at = await d.cycles();
    const pox = (await d.get('/v2/pox')).body as Record<string, unknown> & {
      current_cycle: Json;
      next_cycle: Json;
    };
    expect(pox).toMatchObject({
      contract_id: 'ST000000000000000000002AMW42H.pox-5',
      current_burnchain_block_height: at.burnHeight,
      reward_cycle_length: at.length,
      current_cycle: { id: at.cycle },
      next_cycle: { id: at.cycle + 1, reward_phase_start_block_height: at.start(at.cycle + 1) },
    });
    // As stacks-core computes a cycle: (burn height − first burnchain height) / cycle length.
    const first = Number(pox['first_burnchain_block_height']);
    expect(Math.floor((at.burnHeight - first) / at.length)).toBe(at.cycle);
  });

  it('the lock ends at its burn height with no transaction of the address, and the principal ETag stays as it was (as the real API’s)', async () => {
    const d = await start();
    const { unlockHeight, cycle } = await d.cycles();
    await d.call('/devnet/stake', { staker: d.bob, amount: String(55_000n * STX), cycles: 1 });
    const height = unlockHeight(cycle + 2);
    await d.mineToBurnHeight(height - 1);
    const txCount = ((await d.get(`/extended/v3/principals/${d.bob}/transactions`)).body['total'] as number) ?? 0;
    const locked = await d.get(`/extended/v3/principals/${d.bob}/balances/stx`);
    expect(locked.body['locked']).not.toBeNull();
    expect(locked.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(
      (await d.get(`/extended/v3/principals/${d.bob}/balances/stx`, { 'if-none-match': locked.etag! })).status,
    ).toBe(304);
    await d.mine();
    const unlocked = await d.get(`/extended/v3/principals/${d.bob}/balances/stx`);
    expect(unlocked.body['locked']).toBeNull();
    expect(unlocked.body['available']).toBe(unlocked.body['balance']);
    // The API's principal ETag hashes the newest transaction and a lock state read from pox-4 events only: a pox-5
    // lock's end changes neither, so a client that revalidates its cached copy is told it is still current.
    expect(unlocked.etag).toBe(locked.etag);
    expect(
      (await d.get(`/extended/v3/principals/${d.bob}/balances/stx`, { 'if-none-match': locked.etag! })).status,
    ).toBe(304);
    expect((await d.get(`/extended/v1/address/${d.bob}/stx`)).body).toMatchObject({
      locked: '0',
      burnchain_unlock_height: 0,
    });
    expect((await d.staking(d.bob)).stx.locked).toBe('0');
    expect((await d.get(`/extended/v3/principals/${d.bob}/transactions`)).body['total']).toBe(txCount);
  });

  it('a pox-4 lock’s end changes the principal ETag (its state is in it); a principal with no transaction has none', async () => {
    const d = await start();
    const path = `/extended/v3/principals/${d.carol}/balances/stx`;
    // A principal with no transaction has no ETag at all (the API has nothing to hash): Carol is sent some first.
    expect((await d.get(path)).etag).toBeNull();
    await d.call('/devnet/transfer', { sender: d.alice, recipient: d.carol, amount: '5' });
    const locked = await d.get(path);
    expect(locked.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(locked.body['locked']).toMatchObject({ pox_version: 4 });
    const until = (locked.body['locked'] as Json)['burn_unlock_height'] as number;
    await d.mineToBurnHeight(until);
    const unlocked = await d.get(path, { 'if-none-match': locked.etag ?? '' });
    expect(unlocked.body['locked']).toBeNull();
    expect(unlocked.status).toBe(200);
    expect(unlocked.etag).not.toBe(locked.etag);
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
    // pox-5's variable, as the node's data_var route serializes a Clarity bool (0x04 false, 0x03 true).
    const pausedVar = async () =>
      (await d.get('/v2/data_var/ST000000000000000000002AMW42H/pox-5/rewards-paused?proof=0')).body['data'];
    expect(await pausedVar()).toBe('0x04');
    await d.call('/devnet/stake', { staker: d.alice, amount: String(60_000n * STX), cycles: 4 });
    await d.post('/devnet/cycles', { count: 2 });
    const pause = await d.call('/devnet/staking/pause', {});
    expect(pause).toMatchObject({ tx_status: 'success', contract_call: { function_name: 'pause-rewards' } });
    printed(pause, 'pause-rewards');
    expect((await d.status())['rewards_paused']).toBe(true);
    expect(await pausedVar()).toBe('0x03');
    expect((await d.get('/v2/data_var/ST000000000000000000002AMW42H/pox-5/no-such-var')).status).toBe(404);
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
}
