/**
 * Mutated answers through the engine, over MSW and the devnet: feed events handed to the monitor's own feed
 * handlers, and REST answers replaced on the wire while the engine reconciles. Zero crashes, zero unhandled
 * rejections, every refused event reported exactly once, and the stored snapshots untouched by what was refused:
 * a second book reading the same IndexedDB store (what a reload sees) finds exactly what was there before.
 * FUZZ_SEED=<n> repeats a run; a failure prints it.
 */
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedHandlers } from '../../../src/chain/feed.ts';
import { decodeBlock, decodeStxV1 } from '../../../src/chain/decode.ts';
import { decodeMempoolV1, decodeWithTransfers, mempoolParties } from '../../../src/chain/decode-activity.ts';
import type { ResumeAnchor } from '../../../src/domain/state/resume-anchor.ts';
import { SnapshotBook } from '../../../src/store/snapshot-book.ts';
import { mswServer, ORIGIN, rig, serveDevnetThroughMsw, type Rig } from '../harness.ts';
import { mutate, parse, random, type Json } from './mutate.ts';

serveDevnetThroughMsw();

const SEED = Number(process.env.FUZZ_SEED ?? 1313);
const FEED_CASES = 8_000;
const REST_CASES = 2_000;

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => process.off('unhandledRejection', onUnhandled));

const plain = (value: unknown) => JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? `${item}n` : item));

async function stored(r: Rig, principals: readonly string[]): Promise<string> {
  await r.book.saved();
  const reloaded = new SnapshotBook(r.snapshotStore);
  await reloaded.load();
  return plain(principals.map((principal) => reloaded.get(principal) ?? null));
}

/** A feed payload and whether the engine's own decoders would refuse it (the oracle for "reported once"). */
interface FeedCase {
  readonly deliver: (handlers: FeedHandlers) => void;
  readonly refused: boolean;
}

function refuses(decode: () => unknown): boolean {
  try {
    decode();
    return false;
  } catch {
    return true;
  }
}

describe(`the engine against mutated node answers (seed ${SEED})`, () => {
  it(`${FEED_CASES.toLocaleString('en')} feed events and ${REST_CASES.toLocaleString('en')} REST answers: no crash, each refusal reported once, stored snapshots intact`, async () => {
    let handlers: FeedHandlers | null = null;
    // The resume anchor is the test's to move: a round with it reads the node's list of mined transactions first.
    let anchor: ResumeAnchor | null = null;
    const r = rig({ onFeed: (given) => (handlers = given), anchors: { get: () => anchor, set: () => {} } });
    const [alice, bob] = r.devnet.chain.accounts.people.map((person) => person.address) as [string, string];
    await r.control('/devnet/transfer', { sender: alice, recipient: bob, amount: '4242', memo: 'before the storm' });
    await r.control('/devnet/mine', {});
    r.monitor.start([alice, bob]);
    await r.until(bob, (s) => s.stx !== null && s.recent.length > 0);
    await r.until(alice, (s) => s.stx !== null && s.recent.length > 0);
    await r.monitor.reconcile();
    await r.monitor.settled();
    const before = await stored(r, [alice, bob]);
    const inMemory = plain([r.book.get(alice), r.book.get(bob)]);

    // Recorded real shapes, aimed at the watched addresses.
    const samples = (await import('../../fixtures/real-api/realtime-samples.json')).default as Record<string, Json[]>;
    const transfer = structuredClone(samples['address-transaction/token_transfer']!.at(-1)!) as {
      tx: Record<string, Json> & { token_transfer: Record<string, Json> };
    };
    transfer.tx.sender_address = alice;
    transfer.tx.token_transfer.recipient_address = bob;
    const balance = samples['address-stx-balance']!.at(-1)!;
    const mempool = structuredClone(samples['mempool']!.at(-1)!) as Record<string, Json>;
    mempool['sender_address'] = alice;
    const block = samples['block']!.at(-1)!;
    const watched = new Set([alice, bob]);

    const rng = random(SEED);
    const cases: FeedCase[] = [];
    for (let index = 0; index < FEED_CASES; index++) {
      const topic = index % 4;
      const source = [transfer, balance, mempool, block][topic] as Json;
      const parsed = parse(mutate(source, rng).body);
      if (!parsed.ok) continue; // Socket.IO delivers parsed JSON: a truncated frame never reaches a handler.
      const value = parsed.value;
      const field = { value, path: '$' };
      if (topic === 0)
        cases.push({
          deliver: (h) => h.onAddressTransaction(bob, value),
          refused: refuses(() => decodeWithTransfers(field, bob)),
        });
      else if (topic === 1)
        cases.push({ deliver: (h) => h.onAddressBalance(bob, value), refused: refuses(() => decodeStxV1(value)) });
      else if (topic === 2)
        cases.push({
          deliver: (h) => h.onMempool(value),
          refused: refuses(() =>
            [...new Set(mempoolParties(field))].filter((p) => watched.has(p)).map((p) => decodeMempoolV1(field, p)),
          ),
        });
      else cases.push({ deliver: (h) => h.onBlock(value), refused: refuses(() => decodeBlock(value)) });
    }

    // Refused events first: each reported once, nothing stored.
    const refused = cases.filter((item) => item.refused);
    const reportsBefore = r.problems.filter((problem) => problem.startsWith('Ignored a malformed')).length;
    for (const item of refused) expect(() => item.deliver(handlers!)).not.toThrow();
    await r.monitor.settled();
    const reports = r.problems.filter((problem) => problem.startsWith('Ignored a malformed')).length - reportsBefore;
    expect(reports, `FUZZ_SEED=${SEED}`).toBe(refused.length);
    expect(plain([r.book.get(alice), r.book.get(bob)]), `FUZZ_SEED=${SEED}`).toBe(inMemory);
    expect(await stored(r, [alice, bob]), `FUZZ_SEED=${SEED}`).toBe(before);

    // REST answers broken on the wire while the engine reconciles: refused, reported, nothing stored.
    let broken = 0;
    mswServer().use(
      http.get(`${ORIGIN}/extended/*`, async ({ request }) => {
        const path = new URL(request.url).pathname;
        const scouting = path === '/extended/v1/tx' || path.startsWith('/extended/v2/blocks/');
        if (!path.startsWith('/extended/v3/principals') && path !== '/extended' && !scouting) return undefined;
        const answer = await r.devnet.handle({
          method: 'GET',
          url: new URL(request.url),
          headers: Object.fromEntries(request.headers),
        });
        if (answer.status !== 200) return new HttpResponse(answer.body || null, answer);
        const original = parse(answer.body);
        if (!original.ok) return new HttpResponse(answer.body, answer);
        broken++;
        return new HttpResponse(mutate(original.value as Json, rng).body, {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    r.rest.forgetValidators();
    const problemsBefore = r.problems.length;
    let rounds = 0;
    while (broken < REST_CASES && rounds++ < REST_CASES) {
      r.rest.forgetValidators();
      const tip = r.devnet.chain.tip;
      anchor = rounds % 2 === 0 ? null : { height: tip.height, indexHash: tip.indexHash };
      if (anchor) await r.control('/devnet/mine', {});
      await r.monitor.reconcile();
    }
    anchor = null;
    await r.monitor.settled();
    mswServer().resetHandlers();
    expect(broken).toBeGreaterThanOrEqual(REST_CASES);
    expect(r.problems.length).toBeGreaterThan(problemsBefore);
    for (const problem of r.problems.slice(problemsBefore)) expect(problem.length).toBeLessThan(600);

    // Accepted mutants may change what the node says; they never leave a record a reload cannot read.
    for (const item of cases.filter((each) => !each.refused)) expect(() => item.deliver(handlers!)).not.toThrow();
    await r.monitor.settled();
    expect(await stored(r, [alice, bob])).toBe(plain([r.book.get(alice), r.book.get(bob)]));
    expect(unhandled, `FUZZ_SEED=${SEED}`).toEqual([]);
  });
});
