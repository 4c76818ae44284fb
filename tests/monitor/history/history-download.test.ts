import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../mocks/devnet/random.ts';
import type { DevnetChain } from '../../../mocks/devnet/chain.ts';
import type { HistoryProgress } from '../../../src/domain/history/history.ts';
import { koinlyCsv } from '../../../src/domain/history/koinly-csv.ts';
import type { Activity, TokenMetadata } from '../../../src/domain/state/snapshot.ts';
import { NodeError, type StacksRestClient } from '../../../src/chain/rest-client.ts';
import { downloadHistory, type DownloadReport } from '../../../src/monitor/history-download.ts';
import type { HistoryPort } from '../../../src/monitor/history-port.ts';
import { IdbHistoryStore } from '../../../src/store/history-store.ts';
import { baseUnits, csvRecords } from '../../support/csv-read.ts';
import { ledgerHistory } from '../../support/ledger-history.ts';
import { rig, serveDevnetThroughMsw } from '../harness.ts';
import { Traffic } from '../truth/traffic.ts';

serveDevnetThroughMsw();

const SEED = process.env['HISTORY_SEED'] ?? '1';
let stores = 0;
const freshStore = () => new IdbHistoryStore(createStore(`stacks-watch:history:test-${++stores}`, 'chunks'));

/** Mixed traffic among the demo accounts from a seed, mined a few transactions a block. */
async function traffic(chain: DevnetChain, acts: number, seed: string): Promise<void> {
  const random = new SeededRandom(`history-${seed}`);
  const generator = new Traffic(chain, random);
  for (let n = 0; n < acts; n++) {
    await generator.act();
    if (random.chance(0.3)) chain.mine();
  }
  while (chain.pending().length > 0) chain.mine();
}

const storedActivities = async (store: HistoryPort, principal: string): Promise<Activity[]> =>
  (await store.chunks(await store.progress('testnet', principal))).flat();

/** The devnet's tokens by asset identifier: the test's own names, not the app's catalog. */
const tokensOf = (chain: DevnetChain) => {
  const byAsset = new Map<string, TokenMetadata>(
    chain.assets.tokens.map((token) => [
      token.assetIdentifier,
      { name: token.name, symbol: token.symbol, decimals: token.decimals },
    ]),
  );
  return (asset: string) => byAsset.get(asset);
};

describe(`an address's full history, read onto the device (seed ${SEED})`, () => {
  it('is read page by page, stops when cancelled, resumes from the stored cursor and ends with every transaction once', async () => {
    const harness = rig();
    const { chain } = harness.devnet;
    const alice = chain.accounts.people[0]!.address;
    await traffic(chain, 260, SEED);
    const truth = ledgerHistory(chain, alice);
    expect(truth.length, `seed ${SEED}`).toBeGreaterThan(60);

    const store = freshStore();
    const controller = new AbortController();
    const reports: DownloadReport[] = [];
    await expect(
      downloadHistory({
        rest: harness.rest,
        store,
        network: 'testnet',
        principal: alice,
        perMinute: 24,
        signal: controller.signal,
        onProgress(report) {
          reports.push(report);
          if (report.progress.chunks.length === 2) controller.abort();
        },
      }),
    ).rejects.toThrow();
    const stopped = await store.progress('testnet', alice);
    expect(stopped.complete).toBe(false);
    expect(stopped.kept).toBe(40);
    expect((await storedActivities(store, alice)).map((a) => a.txId)).toEqual(truth.slice(0, 40).map((t) => t.txId));
    // The estimate at the public node's pace: pages left times their requests, at 24 a minute.
    const last = reports.at(-1)!;
    expect(last.secondsLeft).toBeGreaterThanOrEqual(Math.ceil((truth.length - 40) / 20) * (60 / 24));

    const requestsBefore = harness.scheduler.stats.started;
    const done = await downloadHistory({
      rest: harness.rest,
      store,
      network: 'testnet',
      principal: alice,
      perMinute: 24,
    });
    expect(done.progress.complete).toBe(true);
    const kept = await storedActivities(store, alice);
    expect(
      kept.map((a) => a.txId),
      `seed ${SEED}`,
    ).toEqual(truth.map((t) => t.txId));
    // Resumed, not restarted: the newest page again (what is new), then only the pages not read before, each with at
    // most one read of its events (and the newest page once more without the validator the client held for it).
    const pagesLeft = Math.ceil((truth.length - 40) / 20);
    expect(harness.scheduler.stats.started - requestsBefore).toBeLessThanOrEqual((1 + pagesLeft) * 2 + 1);
    expect(done.requests).toBe(harness.scheduler.stats.started - requestsBefore);
  });

  it('ends its wait for the node\u2019s budget at once when cancelled (the history\u2019s lock is not held a minute)', async () => {
    // A node whose window is spent: every page is refused (after the pacer's own retries), and the download waits
    // for the window to renew, up to a minute.
    const refusing = {
      transactions: async () => {
        throw new NodeError('the node answered 429', 429);
      },
    } as unknown as StacksRestClient;
    const waits: number[] = [];
    const controller = new AbortController();
    let ended: string | null = null;
    void downloadHistory({
      rest: refusing,
      store: freshStore(),
      network: 'testnet',
      principal: rig().devnet.chain.accounts.people[0]!.address,
      perMinute: 24,
      signal: controller.signal,
      sleep: (ms) => (waits.push(ms), new Promise<void>(() => {})),
    }).then(
      () => (ended = 'finished'),
      (error: Error) => (ended = error.name),
    );
    await expect.poll(() => waits).toEqual([30_000]);
    controller.abort();
    await expect.poll(() => ended).toBe('AbortError');
  });

  it('exports a CSV whose every transaction and amount equal the ledger, read back by an independent parser', async () => {
    const harness = rig();
    const { chain } = harness.devnet;
    const bob = chain.accounts.people[1]!.address;
    await traffic(chain, 200, `${SEED}-csv`);
    const store = freshStore();
    await downloadHistory({ rest: harness.rest, store, network: 'testnet', principal: bob, perMinute: 24 });
    const token = tokensOf(chain);
    const csv = koinlyCsv(
      [{ address: { principal: bob, name: 'Bob' }, activities: await storedActivities(store, bob) }],
      { from: null, until: null },
      token,
    );
    const records = csvRecords(csv);

    const decimalsOf = (currency: string): { key: string; decimals: number } => {
      if (currency === 'STX') return { key: 'STX', decimals: 6 };
      const found = chain.assets.tokens.find((candidate) => candidate.symbol === currency);
      if (found) return { key: found.assetIdentifier, decimals: found.decimals };
      // An NFT is `<name> #<id>`: the devnet's ids are Clarity uints (`u12`).
      const [name, id = ''] = currency.split(' ');
      return {
        key: `${chain.assets.nft.assetIdentifier}#${id.replace(/^#/, 'u')}`,
        decimals: name === chain.assets.nft.assetIdentifier.split('::')[1] ? 0 : NaN,
      };
    };
    const exported = new Map<string, { net: Map<string, bigint>; fee: bigint }>();
    for (const record of records) {
      const tx = exported.get(record['TxHash']!) ?? { net: new Map<string, bigint>(), fee: 0n };
      exported.set(record['TxHash']!, tx);
      // A fee paid on its own is a withdrawal of the fee labelled "cost" (Koinly's way).
      if (record['Label'] === 'cost' && record['Received Amount'] === '') {
        expect([record['Sent Currency'], record['Fee Amount']]).toEqual(['STX', '']);
        tx.fee += baseUnits(record['Sent Amount']!, 6);
        continue;
      }
      for (const [amount, currency, sign] of [
        [record['Sent Amount']!, record['Sent Currency']!, -1n],
        [record['Received Amount']!, record['Received Currency']!, 1n],
      ] as const) {
        if (amount === '') continue;
        const { key, decimals } = decimalsOf(currency);
        tx.net.set(key, (tx.net.get(key) ?? 0n) + sign * baseUnits(amount, decimals));
      }
      if (record['Fee Amount'] !== '') {
        expect(record['Fee Currency']).toBe('STX');
        tx.fee += baseUnits(record['Fee Amount']!, 6);
      }
    }
    const truth = ledgerHistory(chain, bob).filter((tx) => tx.net.size > 0 || tx.fee > 0n);
    expect(
      truth.some((tx) => !tx.success && tx.fee > 0n),
      `seed ${SEED}: a failed transaction of Bob's`,
    ).toBe(true);
    expect([...exported.keys()].sort(), `seed ${SEED}`).toEqual(truth.map((tx) => tx.txId).sort());
    for (const tx of truth) {
      const got = exported.get(tx.txId)!;
      expect(got.fee, `fee of ${tx.txId}, seed ${SEED}`).toBe(tx.fee);
      // A failed transaction moved nothing: its fee only.
      expect(Object.fromEntries(got.net), `movements of ${tx.txId}, seed ${SEED}`).toEqual(
        Object.fromEntries(tx.success ? tx.net : new Map()),
      );
    }
  });

  it('moves its progress only after the chunk it names is stored, and tries a refused write again', async () => {
    const harness = rig();
    const { chain } = harness.devnet;
    const carol = chain.accounts.people[2]!.address;
    await traffic(chain, 160, `${SEED}-writes`);
    const inner = freshStore();
    const storedChunks = new Set<number>();
    let refusals = 0;
    const failures: unknown[] = [];
    const namedBeforeStored: number[] = [];
    const flaky: HistoryPort = {
      progress: (network, principal) => inner.progress(network, principal),
      chunks: (progress) => inner.chunks(progress),
      async storeChunk(progress, chunk, items) {
        if (refusals++ % 2 === 0) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        await inner.storeChunk(progress, chunk, items);
        storedChunks.add(chunk);
      },
      async storeProgress(progress: HistoryProgress) {
        for (const chunk of progress.chunks) if (!storedChunks.has(chunk)) namedBeforeStored.push(chunk);
        await inner.storeProgress(progress);
      },
    };
    const done = await downloadHistory({
      rest: harness.rest,
      store: flaky,
      network: 'testnet',
      principal: carol,
      perMinute: 24,
      sleep: () => Promise.resolve(),
      onWriteFailure: (error) => failures.push(error),
    });
    expect(namedBeforeStored).toEqual([]);
    expect(done.progress.complete).toBe(true);
    expect(failures.length).toBeGreaterThan(0);
    expect((await storedActivities(inner, carol)).map((a) => a.txId)).toEqual(
      ledgerHistory(chain, carol).map((t) => t.txId),
    );
  });

  it('adds what was mined after a complete read at the top, once, reading only the newest page', async () => {
    const harness = rig();
    const { chain } = harness.devnet;
    const dave = chain.accounts.people[3]!.address;
    await traffic(chain, 120, `${SEED}-newer`);
    const store = freshStore();
    await downloadHistory({ rest: harness.rest, store, network: 'testnet', principal: dave, perMinute: 24 });
    await traffic(chain, 30, `${SEED}-newer-2`);
    const before = harness.scheduler.stats.started;
    const again = await downloadHistory({
      rest: harness.rest,
      store,
      network: 'testnet',
      principal: dave,
      perMinute: 24,
    });
    expect(again.progress.complete).toBe(true);
    expect((await storedActivities(store, dave)).map((a) => a.txId)).toEqual(
      ledgerHistory(chain, dave).map((t) => t.txId),
    );
    expect(harness.scheduler.stats.started - before).toBeLessThanOrEqual(6);
  });
});
