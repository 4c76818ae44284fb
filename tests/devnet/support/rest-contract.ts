import { createClient } from '@stacks/blockchain-api-client';
import { afterEach, expect, it } from 'vitest';
import { NO_FAULTS } from '../../../mocks/devnet/faults.ts';
import { fixture, fixtureHeaders, shapeOf } from './fixtures.ts';
import { control, type DevnetTarget } from './target.ts';

const DIGITS = /^\d+$/;

/** The REST rules, proven against a target (the real server, or MSW over the same model). */
export function restContract(target: () => DevnetTarget): void {
  const api = () => createClient({ baseUrl: target().url });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${target().url}${path}`, { headers });
  const people = () => target().node.chain.accounts.people;
  const person = (i: number) => () => people()[i]!.address;
  const [alice, bob, carol] = [person(0), person(1), person(2)];
  const mine = (count = 1) => control(target().url).post('/devnet/mine', { count });

  afterEach(() => {
    target().node.faults.faults = structuredClone(NO_FAULTS);
  });

  it('GET /extended answers like the real API, with the index block hash as ETag and 304 on revalidation', async () => {
    const response = await get('/extended');
    const body = await response.json();
    expect(shapeOf(body)).toEqual(shapeOf(fixture('extended')));
    const tip = target().node.chain.tip;
    expect(response.headers.get('etag')).toBe(`"${tip.indexHash}"`);
    for (const name of ['access-control-allow-origin', 'access-control-expose-headers', 'cache-control']) {
      expect(response.headers.get(name)).toBe(fixtureHeaders('extended').headers[name]);
    }
    expect((await get('/extended', { 'if-none-match': `"${tip.indexHash}"` })).status).toBe(304);
  });

  it('the v1 address routes have the recorded shapes and the deprecation warning', async () => {
    await control(target().url).post('/devnet/transfer', { sender: alice(), recipient: bob(), amount: '1' });
    await mine();
    for (const route of ['stx', 'nonces', 'mempool']) {
      const response = await get(`/extended/v1/address/${alice()}/${route}`);
      expect(shapeOf(await response.json()), route).toEqual(shapeOf(fixture(`extended_v1_address_${route}`)));
      expect(response.headers.get('warning')).toBe(
        fixtureHeaders(`extended_v1_address_${route}`).headers['warning'] ?? null,
      );
    }
    const balances = (await (await get(`/extended/v1/address/${alice()}/balances`)).json()) as Record<string, unknown>;
    expect(Object.keys(balances).sort()).toEqual(Object.keys(fixture('extended_v1_address_balances') as object).sort());
    expect(shapeOf(balances['stx'])).toEqual(
      shapeOf((fixture('extended_v1_address_balances') as { stx: unknown }).stx),
    );
  });

  it('a mined transfer reads back from /extended/v1/tx in the recorded token_transfer shape', async () => {
    const { data } = await control(target().url).post('/devnet/transfer', {
      sender: alice(),
      recipient: bob(),
      amount: '1000',
      memo: 'hi',
    });
    const pending = await (await get(`/extended/v1/tx/${String(data['tx_id'])}`)).json();
    expect(pending).toMatchObject({ tx_status: 'pending', tx_type: 'token_transfer' });
    await mine();
    const mined = await (await get(`/extended/v1/tx/${String(data['tx_id'])}`)).json();
    expect(shapeOf(mined)).toEqual(shapeOf(fixture('extended_v1_tx_token_transfer')));
    expect(mined).toMatchObject({ tx_status: 'success', token_transfer: { amount: '1000', recipient_address: bob() } });
  });

  it('lists mined transactions newest first and blocks by height, in the recorded shapes', async () => {
    const { data } = await control(target().url).post('/devnet/transfer', {
      sender: alice(),
      recipient: bob(),
      amount: '7',
    });
    await mine();
    const list = (await (await get('/extended/v1/tx?limit=50')).json()) as { results: Record<string, unknown>[] };
    const recorded = fixture('extended_v1_tx_limit_50') as { results: unknown[] };
    expect(shapeOf({ ...list, results: [] })).toEqual(shapeOf({ ...recorded, results: [] }));
    expect(shapeOf(list.results[0])).toEqual(shapeOf(recorded.results[0]));
    expect(list.results[0]).toMatchObject({ tx_id: data['tx_id'], events: [], event_count: 1 });
    const heights = list.results.map((tx) => tx['block_height'] as number);
    expect(heights).toEqual([...heights].sort((a, b) => b - a));
    const tip = target().node.chain.tip;
    const block = await (await get(`/extended/v2/blocks/${tip.height}`)).json();
    const recordedBlock = (fixture('extended_v2_blocks_limit_5') as { results: unknown[] }).results[0];
    expect(shapeOf(block)).toEqual(shapeOf(recordedBlock));
    expect(block).toMatchObject({ height: tip.height, index_block_hash: tip.indexHash, tx_count: 1 });
    expect((await get(`/extended/v2/blocks/${tip.indexHash}`)).status).toBe(200);
    expect((await get(`/extended/v2/blocks/${tip.height + 1}`)).status).toBe(404);
    // The newest blocks, newest first, in the recorded page's shape (what a monitor learns its block trail from).
    expect(tip.height).toBeGreaterThan(2);
    const blocks = (await (await get('/extended/v2/blocks?limit=2')).json()) as { results: { height: number }[] };
    expect(shapeOf({ ...blocks, results: [] })).toEqual(
      shapeOf({ ...(fixture('extended_v2_blocks_limit_5') as object), results: [] }),
    );
    expect(shapeOf(blocks.results[0])).toEqual(shapeOf(recordedBlock));
    expect(blocks.results.map((item) => item.height)).toEqual([tip.height, tip.height - 1]);
    expect((await get('/extended/v2/blocks?limit=31')).status).toBe(400);
  });

  it('the v3 principal routes answer the client library’s shapes, amounts as integer strings', async () => {
    const { data: stx } = await api().GET('/extended/v3/principals/{principal}/balances/stx', {
      params: { path: { principal: carol() } },
    });
    expect(stx?.balance).toMatch(DIGITS);
    expect(BigInt(stx!.available) + BigInt(stx!.locked?.amount ?? 0)).toBe(BigInt(stx!.balance));
    expect(stx?.locked).toMatchObject({ pox_version: 4, burn_unlock_height: expect.any(Number) });
    const { data: ft } = await api().GET('/extended/v3/principals/{principal}/balances/ft', {
      params: { path: { principal: alice() } },
    });
    expect(ft?.results.length).toBeGreaterThanOrEqual(2);
    const { data: nft } = await api().GET('/extended/v3/principals/{principal}/balances/nft', {
      params: { path: { principal: bob() } },
    });
    expect(nft?.results[0]).toMatchObject({
      asset_identifier: expect.stringContaining('::'),
      value: { repr: expect.stringMatching(/^u\d+$/) },
    });
    const { data: nonces } = await api().GET('/extended/v3/principals/{principal}/nonces', {
      params: { path: { principal: alice() } },
    });
    expect(nonces).toMatchObject({ next_nonce: expect.any(Number), mempool: { pending_nonces: expect.any(Array) } });
  });

  it('v3 answers carry an ETag; an unchanged principal costs a 304, a new block touching it a 200', async () => {
    const path = `/extended/v3/principals/${bob()}/balances/stx`;
    const first = await get(path);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await get(path, { 'if-none-match': etag })).status).toBe(304);
    await control(target().url).post('/devnet/transfer', { sender: alice(), recipient: bob(), amount: '5', memo: '' });
    await mine();
    const changed = await get(path, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('pages transactions newest first with cursors, at most 50 a page', async () => {
    const dave = people()[3]!.address;
    for (let i = 0; i < 55; i++)
      await control(target().url).post('/devnet/transfer', { sender: dave, recipient: alice(), amount: String(i + 1) });
    await mine();
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { data } = await api().GET('/extended/v3/principals/{principal}/transactions', {
        params: { path: { principal: dave }, query: { limit: 50, ...(cursor ? { cursor } : {}) } },
      });
      pages += 1;
      expect(data!.results.length).toBeLessThanOrEqual(50);
      seen.push(...data!.results.map((row) => row.transaction.tx_id));
      cursor = data!.cursor.next ?? undefined;
    } while (cursor);
    expect(pages).toBe(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(target().node.chain.transactionsOf(dave).length);
    expect(seen[0]).toBe(target().node.chain.transactionsOf(dave)[0]!.signed.txId);
    const tooMany = await get(`/extended/v3/principals/${dave}/transactions?limit=51`);
    expect([tooMany.status, await tooMany.json()]).toEqual([400, fixture('error_v1_twt_limit_51')]);
    expect((await get(`/extended/v3/principals/${dave}/transactions?cursor=1:2:3`)).status).toBe(400);
  });

  it('balance-changes gives the FT and NFT deltas of a transaction, for at most 20 tx ids', async () => {
    const chain = target().node.chain;
    const token = chain.assets.tokens[0]!;
    const { data: ft } = await control(target().url).post('/devnet/ft-transfer', {
      sender: alice(),
      recipient: bob(),
      asset: token.symbol,
      amount: '250',
    });
    const owned = [...chain.state.nftOwners].find(([, owner]) => owner === alice())![0].split('#')[1]!;
    const { data: nft } = await control(target().url).post('/devnet/nft-transfer', {
      sender: alice(),
      recipient: bob(),
      id: owned,
    });
    await mine();
    const { data } = await api().GET('/extended/v3/principals/{principal}/balance-changes', {
      params: { path: { principal: bob() }, query: { tx_id: [String(ft['tx_id']), String(nft['tx_id'])] } },
    });
    expect(data?.results).toEqual([
      {
        tx_id: ft['tx_id'],
        asset: { type: 'ft', identifier: token.assetIdentifier },
        balance_change: { sent: '0', received: '250', net: '250' },
      },
      {
        tx_id: nft['tx_id'],
        asset: { type: 'nft', identifier: chain.assets.nft.assetIdentifier },
        balance_change: { sent: '0', received: '1', net: '1' },
      },
    ]);
    const ids = Array.from({ length: 21 }, () => String(ft['tx_id'])).join(',');
    expect((await get(`/extended/v3/principals/${bob()}/balance-changes?tx_id=${ids}`)).status).toBe(400);
  });

  it('answers errors as the real API does', async () => {
    const cases: [string, string][] = [
      ['/extended/v1/address/NOT_AN_ADDRESS/stx', 'error_v1_address_invalid_stx'],
      [`/extended/v1/address/${alice().toLowerCase()}/stx`, 'error_v1_address_lowercase_stx'],
      [`/extended/v1/tx/0x${'0'.repeat(64)}`, 'error_v1_tx_not_found'],
      ['/extended/v1/tx/not-a-txid', 'error_v1_tx_invalid'],
    ];
    for (const [path, name] of cases) {
      const response = await get(path);
      expect([response.status, await response.json()], path).toEqual([fixtureHeaders(name).status, fixture(name)]);
    }
    expect((await get(`/extended/v3/principals/${alice().toLowerCase()}/balances/stx`)).status).toBe(400);
    expect(await (await get('/v1/names/nobody.btc')).json()).toEqual({ error: 'cannot find name nobody.btc' });
  });

  it('resolves BNS names and serves token metadata', async () => {
    expect(await (await get('/v1/names/alice.btc')).json()).toMatchObject({ address: alice(), blockchain: 'stacks' });
    expect(await (await get(`/v1/addresses/stacks/${alice()}`)).json()).toEqual({ names: ['alice.btc'] });
    const token = target().node.chain.assets.tokens[1]!;
    expect(await (await get(`/metadata/v1/ft/${token.contractId}`)).json()).toMatchObject({
      name: 'Demo USD',
      symbol: 'DUSD',
      decimals: 6,
    });
    expect((await get(`/metadata/v1/ft/${alice()}.nothing`)).status).toBe(404);
  });

  it('tells a deployed contract from a contract principal where nothing was deployed, as API 9 does', async () => {
    const vault = target().node.chain.accounts.vault.address;
    const found = await get(`/extended/v1/contract/${vault}`);
    expect([found.status, (await found.json()).contract_id]).toEqual([200, vault]);
    const missing = await get(`/extended/v1/contract/${alice()}.nothing`);
    expect([missing.status, await missing.json()]).toEqual([404, { error: 'cannot find contract by ID' }]);
  });

  it('answers a CORS preflight as the real API does', async () => {
    const response = await fetch(`${target().url}/extended/v1/address/${alice()}/stx`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'if-none-match,x-api-key',
      },
    });
    const expected = fixtureHeaders('cors_preflight_v1_address_stx');
    expect(response.status).toBe(expected.status);
    for (const [name, value] of Object.entries(expected.headers)) expect(response.headers.get(name), name).toBe(value);
  });

  it('behaves like an older node when switched: 404 on v3, v1 still served', async () => {
    await control(target().url).post('/devnet/faults', { oldNode: true });
    const v3 = await get(`/extended/v3/principals/${alice()}/balances/stx`);
    expect(v3.status).toBe(404);
    expect(shapeOf(await v3.json())).toEqual(shapeOf(fixture('extended_v3_principals_balances_stx')));
    expect((await get(`/extended/v1/address/${alice()}/stx`)).status).toBe(200);
  });

  it('answers 429 with retry-after at the configured rate', async () => {
    const set = await control(target().url).post('/devnet/faults', { rateLimit: { rate: 0.5, retryAfterSeconds: 2 } });
    expect(set.status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const response = await get('/extended');
      statuses.push(response.status);
      if (response.status === 429) expect(response.headers.get('retry-after')).toBe('2');
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });

  it('holds each answer for the latency set, and answers what it held once the latency is lowered, as a node that recovers', async () => {
    expect((await control(target().url).post('/devnet/faults', { latencyMs: 60_000 })).status).toBe(200);
    let answered: number | null = null;
    const held = get('/extended').then((response) => (answered = response.status));
    await expect.poll(() => target().node.faults.holding).toBe(1);
    expect(answered).toBeNull();
    // Lowered, though not to nothing: what arrived more than that long ago is due at once.
    expect((await control(target().url).post('/devnet/faults', { latencyMs: 1 })).status).toBe(200);
    // Answered long before the minute it was held for.
    await expect.poll(() => answered).toBe(200);
    await held;
    expect(target().node.faults.holding).toBe(0);
  });

  it('sends malformed bodies on a route when asked', async () => {
    await control(target().url).post('/devnet/faults', {
      malformed: [{ pathPrefix: '/extended/v3/principals', kind: 'truncated' }],
    });
    const broken = await (await get(`/extended/v3/principals/${alice()}/balances/stx`)).text();
    expect(() => JSON.parse(broken)).toThrow();
    await control(target().url).post('/devnet/faults', {
      malformed: [{ pathPrefix: '/extended/v3/principals', kind: 'wrong-types' }],
    });
    const flipped = await (await get(`/extended/v3/principals/${alice()}/balances/stx`)).json();
    expect(typeof flipped.balance).toBe('number');
  });

  it('validates every control request with a clear 400', async () => {
    const client = control(target().url);
    const cases: [string, unknown, RegExp][] = [
      ['/devnet/transfer', 'not json', /not valid JSON/],
      [
        '/devnet/transfer',
        { sender: alice(), recipient: bob(), amount: 5 },
        /“amount” must be a whole number of base units as a string/,
      ],
      [
        '/devnet/nft-transfer',
        { sender: alice(), recipient: bob(), id: 'u7' },
        /^“id” must be the NFT's number as a string of digits \(0 to \d+\), for example "1"$/,
      ],
      [
        '/devnet/transfer',
        { sender: alice(), recipient: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7', amount: '5' },
        /mainnet address, but Testnet is selected/,
      ],
      [
        '/devnet/transfer',
        { sender: target().node.chain.accounts.vault.address, recipient: bob(), amount: '5' },
        /is a contract: it cannot sign/,
      ],
      [
        '/devnet/transfer',
        { sender: alice(), recipient: bob(), amount: '999999999999999999' },
        /micro-STX available; this needs/,
      ],
      [
        '/devnet/transfer',
        { sender: alice(), recipient: bob(), amount: '5', memo: 'x'.repeat(35) },
        /at most 34 bytes/,
      ],
      ['/devnet/ft-transfer', { sender: alice(), recipient: bob(), asset: 'NOPE', amount: '5' }, /WGOLD, DUSD/],
      ['/devnet/vault', { sender: alice(), action: 'borrow', amount: '5' }, /“action” must be "deposit" or "withdraw"/],
      ['/devnet/mine', { count: 0 }, /“count” must be a whole number from 1 to 100/],
      ['/devnet/auto', { blockMs: 'fast' }, /“blockMs” must be a whole number of milliseconds/],
      ['/devnet/reorg', {}, /“depth” is required/],
      ['/devnet/faults', { rateLimit: { rate: 2 } }, /rate” must be a number from 0 to 1/],
    ];
    for (const [path, body, message] of cases) {
      const { status, data } = await client.post(path, body);
      expect([status, String(data['error'])], path).toEqual([400, expect.stringMatching(message)]);
    }
  });

  it('re-orgs: the orphaned blocks’ transactions leave the canonical chain, back in the mempool, and are mined again', async () => {
    const { data } = await control(target().url).post('/devnet/transfer', {
      sender: bob(),
      recipient: carol(),
      amount: '777',
    });
    await mine();
    const before = target().node.chain.tip;
    const { status, data: reorg } = await control(target().url).post('/devnet/reorg', { depth: 1 });
    expect(status).toBe(200);
    expect(reorg).toEqual({ orphaned: [before.hash], height: before.height + 1 });
    const txId = String(data['tx_id']);
    expect(await (await get(`/extended/v1/tx/${txId}`)).json()).toMatchObject({ tx_status: 'pending' });
    const carolsHistory = () =>
      target()
        .node.chain.transactionsOf(carol())
        .map((entry) => entry.signed.txId);
    expect(carolsHistory()).not.toContain(txId);
    // Bob's next transfer does not wait on the orphaned one's nonce: the next block mines both, in nonce order.
    const { data: later } = await control(target().url).post('/devnet/transfer', {
      sender: bob(),
      recipient: carol(),
      amount: '778',
    });
    await mine();
    for (const id of [txId, String(later['tx_id'])])
      expect(await (await get(`/extended/v1/tx/${id}`)).json()).toMatchObject({
        tx_status: 'success',
        block_height: before.height + 2,
        canonical: true,
      });
    expect(carolsHistory()).toContain(txId);
  });
}
