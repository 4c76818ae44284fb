import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { fixture, fixtureHeaders, shapeOf } from './support/fixtures.ts';

/** The routes a chain follower reads (issue 38), against the recorded answers and those derived from API 9.0.2. */
let devnet: RunningDevnet;
let alice: string;
let bob: string;
let carol: string;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null });
  [alice, bob, carol] = devnet.node.chain.accounts.people.map((person) => person.address) as [string, string, string];
});

afterAll(() => devnet?.close());

/** What these routes answer, loosely: a map of tx ids, a cursor page or an error. */
interface Body {
  readonly [key: string]: unknown;
  readonly results: { tx_id: string; type: string }[];
  readonly cursor: { next: string | null };
  readonly message: string;
}

const get = async (path: string) => {
  const response = await fetch(`${devnet.url}${path}`);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
};
type Entry = { found: boolean; result: Record<string, unknown> };
const recorded = () => fixture('extended_v1_tx_multiple') as Record<string, Entry>;
const derived = () => fixture('extended_v1_tx_multiple_derived') as Record<string, Entry>;
const recordedEntry = (prefix: string) => Object.entries(recorded()).find(([id]) => id.startsWith(prefix))![1];
const derivedEntry = (prefix: string) => Object.entries(derived()).find(([id]) => id.startsWith(prefix))![1];

describe('/extended/v1/tx/multiple', () => {
  it('answers mined, pending and unknown transactions keyed by id, in the shapes the real API recorded', async () => {
    const { chain } = devnet.node;
    const mined = await chain.submit(alice, { kind: 'stx', recipient: bob, amount: 1000n, memo: '' });
    chain.mine();
    const pending = await chain.submit(alice, { kind: 'stx', recipient: carol, amount: 5n, memo: '' });
    const unknown = `0x${'f6'.repeat(32)}`;
    const { status, headers, body } = await get(
      `/extended/v1/tx/multiple?tx_id=${mined.signed.txId}&tx_id=${pending.signed.txId},${unknown}`,
    );
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual([mined.signed.txId, pending.signed.txId, unknown].sort());
    expect(shapeOf(body[mined.signed.txId])).toEqual(shapeOf(recordedEntry('0x1d4e')));
    expect(shapeOf(body[pending.signed.txId])).toEqual(shapeOf(recordedEntry('0x4939')));
    expect(body[unknown]).toEqual(derivedEntry('0xf6f6'));
    const real = fixtureHeaders('extended_v1_tx_multiple');
    for (const name of ['cache-control', 'access-control-expose-headers']) {
      expect(headers.get(name)).toBe(real.headers[name]);
    }
    expect(headers.get('etag')).toMatch(/^".+"$/);
  });

  it("prints a call's arguments as Clarity does: principals as quoted literals, as the real API's reprs hold them", async () => {
    const { chain } = devnet.node;
    // The recorded real answer prints a principal inside a value as a literal: `(stacker 'ST18MDW2…)`.
    const printed = JSON.stringify(recorded());
    expect(printed).toMatch(/\(stacker 'ST[0-9A-Z]+\)/);
    const token = chain.assets.tokens[0]!;
    const sent = await chain.submit(alice, { kind: 'ft', token, recipient: bob, amount: 1n, memo: 'hi' });
    chain.mine();
    const { body } = await get(`/extended/v1/tx/multiple?tx_id=${sent.signed.txId}`);
    const call = (body[sent.signed.txId] as Entry).result['contract_call'] as {
      function_args: { name: string; repr: string }[];
    };
    expect(call.function_args.map((arg) => [arg.name, arg.repr])).toEqual([
      ['amount', 'u1'],
      ['sender', `'${alice}`],
      ['recipient', `'${bob}`],
      ['memo', `(some 0x${Buffer.from('hi').toString('hex')})`],
    ]);
  });

  it('shows a sponsored transaction with its sponsor, as API 9.0.2 does', async () => {
    const { chain } = devnet.node;
    const sponsored = await chain.submit(alice, { kind: 'stx', recipient: bob, amount: 2500n, memo: '' }, 300n, {
      sponsor: carol,
    });
    chain.mine();
    const { body } = await get(`/extended/v1/tx/multiple?tx_id=${sponsored.signed.txId}`);
    const entry = body[sponsored.signed.txId] as Entry;
    expect(shapeOf(entry)).toEqual(shapeOf(derivedEntry('0xa1a1')));
    expect(entry.result).toMatchObject({ sponsored: true, sponsor_address: carol, tx_status: 'success' });
  });

  it('pages events with event_limit (at most 100) and event_offset, and refuses more', async () => {
    const { chain } = devnet.node;
    const tx = await chain.submit(alice, { kind: 'stx', recipient: bob, amount: 7n, memo: '' });
    chain.mine();
    const id = tx.signed.txId;
    const first = (await get(`/extended/v1/tx/multiple?tx_id=${id}&event_limit=100`)).body[id] as Entry;
    expect(first.result['events']).toHaveLength(1);
    const past = (await get(`/extended/v1/tx/multiple?tx_id=${id}&event_limit=100&event_offset=1`)).body[id] as Entry;
    expect([past.result['event_count'], past.result['events']]).toEqual([1, []]);
    const tooMany = await get(`/extended/v1/tx/multiple?tx_id=${id}&event_limit=101`);
    expect([tooMany.status, tooMany.body]).toEqual([
      400,
      {
        statusCode: 400,
        code: 'FST_ERR_VALIDATION',
        error: 'Bad Request',
        message: 'querystring/event_limit must be <= 100',
      },
    ]);
    const strangers = devnet.node.chain.accounts.people.slice(3).map((person) => person.address);
    const recipients = Array.from({ length: 150 }, (_, i) => ({ to: strangers[i % strangers.length]!, amount: 1n }));
    const contract = `${chain.accounts.deployer.address}.send-many`;
    const airdrop = await chain.submit(chain.accounts.deployer.address, { kind: 'send-many', contract, recipients });
    chain.mine();
    const big = airdrop.signed.txId;
    const events = async (query: string) =>
      ((await get(`/extended/v1/tx/multiple?tx_id=${big}${query}`)).body[big] as Entry).result['events'] as unknown[];
    expect((await events('')).length).toBe(20);
    expect((await events('&event_limit=0')).length).toBe(20);
    expect((await events('&event_limit=100')).length).toBe(100);
    expect((await events('&event_limit=100&event_offset=100')).length).toBe(50);
    const none = await get('/extended/v1/tx/multiple');
    expect(none.status).toBe(400);
  });
});

describe('/extended/v3/blocks/{height_or_hash}/transactions', () => {
  it("lists a block's transactions, highest index first, in the summary shapes of API 9.0.2, by cursor", async () => {
    const { chain } = devnet.node;
    const nft = [...chain.state.nftOwners].find(([, owner]) => owner === bob)!;
    await chain.submit(alice, { kind: 'stx', recipient: bob, amount: 2500n, memo: 'for the card' }, 300n, {
      sponsor: carol,
    });
    await chain.submit(bob, {
      kind: 'nft',
      collection: chain.assets.nft,
      recipient: alice,
      id: BigInt(nft[0].split('#')[1]!),
    });
    const block = chain.mine();
    const { status, body } = await get(`/extended/v3/blocks/${block.height}/transactions`);
    expect(status).toBe(200);
    const page = fixture('extended_v3_blocks_transactions_derived') as { results: { type: string }[] };
    expect(shapeOf({ ...body, results: [] })).toEqual(shapeOf({ ...page, results: [] }));
    const byType = (results: { type: string }[], type: string) => results.find((result) => result.type === type);
    for (const type of ['token_transfer', 'contract_call']) {
      expect(shapeOf(byType(body['results'], type)), type).toEqual(shapeOf(byType(page.results, type)));
    }
    expect(body['results'].map((result: { tx_id: string }) => result.tx_id)).toEqual([...block.txIds].reverse());

    const first = await get(`/extended/v3/blocks/${block.hash}/transactions?limit=1`);
    const second = await get(
      `/extended/v3/blocks/${block.height}/transactions?limit=1&cursor=${first.body['cursor'].next}`,
    );
    expect([...first.body['results'], ...second.body['results']].map((result) => result.tx_id)).toEqual(
      [...block.txIds].reverse(),
    );
    expect(second.body['cursor'].next).toBeNull();
  });

  it('answers 404 for a block it does not have and 400 beyond 50 a page', async () => {
    const missing = await get('/extended/v3/blocks/999999/transactions');
    expect([missing.status, missing.body['message']]).toEqual([404, 'Block not found']);
    const tooMany = await get('/extended/v3/blocks/1/transactions?limit=51');
    expect([tooMany.status, tooMany.body['message']]).toEqual([400, 'querystring/limit must be <= 50']);
  });
});
