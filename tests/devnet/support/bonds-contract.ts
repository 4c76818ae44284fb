import { expect, it } from 'vitest';
import { fixture, shapeOf } from './fixtures.ts';
import { STX, field, fits, printed, stakingSessions, type Json, type OpenDevnet } from './staking-kit.ts';
import {
  BOND,
  BOND_ALLOWLIST_ENTRY,
  BOND_REGISTRATION,
  BOND_REGISTRATION_SUMMARY,
  BOND_SUMMARY,
  CYCLE_SIGNER,
  PRINCIPAL_BOND_POSITION,
  PRINCIPAL_STX_BALANCE,
  SIGNER_STAKER,
  STAKING_SIGNER,
  STAKING_SIGNER_DETAIL,
  paginated,
} from './staking-schemas.ts';

/** Bonds, signers, the staking routes' ETags and paging, `problematic_skipped`, pox-4 history and re-orgs. */
export function bondsContract(open: () => Promise<OpenDevnet>): void {
  const start = stakingSessions(open);

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
    // As the real API (v9.0.2): a bond's STX never enter the STX balance's lock (it is read from stake, stake-update
    // and unstake only); the bond's position says them.
    expect((await d.get(`/extended/v1/address/${d.bob}/stx`)).body['locked']).toBe('0');
    const bobAnswer = await d.get(`/extended/v3/principals/${d.bob}/balances/stx`);
    const bobStx = bobAnswer.body;
    fits(bobStx, PRINCIPAL_STX_BALANCE);
    expect(shapeOf(bobStx)).toEqual(shapeOf(fixture('v9_principals_balances_stx_bond_only')));
    expect(bobStx['locked']).toBeNull();
    expect(bobStx['available']).toBe(bobStx['balance']);
    expect(bobAnswer.etag).toMatch(/^"[0-9a-f]{64}"$/);
    const schedule = bond.body['schedule'] as {
      activation: { bitcoin_height: number };
      unlock: { bitcoin_height: number };
    };
    await d.mineToBurnHeight(schedule.activation.bitcoin_height);
    // As the API 9.x stores it, a position stays `enrolled` while its bond runs (it never writes `running` or
    // `unlocked`): the bond's own status and schedule say where it stands.
    expect((await positions(d.bob)).results![0]).toMatchObject({ status: 'enrolled', active: true });
    expect((await d.get(`/extended/v3/staking/bonds/${index}`)).body['status']).toBe('active');
    // pox-5 takes the announcement from the staker itself only (err u1 otherwise), and once (err u50).
    const chain = d.node.chain;
    const byAdmin = await chain.submit(chain.state.staking.admin, {
      kind: 'pox5-early-exit',
      staker: d.bob,
      signer: chain.state.staking.bondPositions.get(d.bob)!.signer,
    });
    await d.mine();
    expect((await d.get(`/extended/v1/tx/${byAdmin.signed.txId}`)).body['tx_result']).toMatchObject({
      repr: '(err u1)',
    });
    expect((await d.call('/devnet/staking/early-exit', { staker: d.bob }))['tx_status']).toBe('success');
    expect((await positions(d.bob)).results![0]).toMatchObject({ status: 'early_exit', active: false });
    expect((await d.call('/devnet/staking/early-exit', { staker: d.bob }))['tx_result']).toMatchObject({
      repr: '(err u50)',
    });
    expect((await d.call('/devnet/staking/early-exit', { staker: d.dave }))['tx_result']).toMatchObject({
      repr: '(err u35)',
    });
    const out = await d.call('/devnet/staking/unstake-sbtc', { staker: d.dave, sats: '30000000' });
    expect(out.events.map((e) => e['asset'])).toContainEqual(
      expect.objectContaining({ asset_id: sbtc, recipient: d.dave, amount: '30000000' }),
    );
    expect((await positions(d.dave)).results![0]).toMatchObject({
      status: 'early_exit',
      active: true,
      locked: { btc: '0' },
    });
    await d.mineToBurnHeight(schedule.activation.bitcoin_height + 2 * Number((await d.status())['cycle_length']));
    const carol = (await d.staking(d.carol)).bonds;
    expect(carol).toMatchObject({ count: 1, locked: { btc: '40000000', stx: String(20_000n * STX) } });
    expect(BigInt(carol.rewards.btc.claimable)).toBeGreaterThan(0n);
    // Bob's STX stayed locked past his exit, to the bond's end (the ledger refuses to spend them); then both unlock.
    expect(chain.state.available(d.bob)).toBe(chain.state.stx.get(d.bob)!.balance - 20_000n * STX);
    await d.mineToBurnHeight(schedule.unlock.bitcoin_height);
    expect((await positions(d.carol)).results![0]).toMatchObject({ status: 'enrolled', active: true });
    expect((await positions(d.bob)).results![0]).toMatchObject({ status: 'early_exit', active: false });
    expect(chain.state.available(d.bob)).toBe(chain.state.stx.get(d.bob)!.balance);
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
