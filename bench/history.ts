import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import type { NodeConfig } from '../src/chain/networks.ts';
import { StacksRestClient } from '../src/chain/rest-client.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS } from '../src/chain/scheduler.ts';
import { koinlyCsv } from '../src/domain/history/koinly-csv.ts';
import { downloadHistory } from '../src/monitor/history-download.ts';
import { IdbHistoryStore } from '../src/store/history-store.ts';
import { startDevnet } from '../mocks/devnet/server.ts';

export interface HistoryFigures {
  readonly transactions: number;
  /** Reading the whole history onto the device (IndexedDB) and writing the CSV, on the local devnet. */
  readonly secondsOnDevnet: number;
  readonly requests: number;
  /** The same requests at 24 a minute (the public API without a key). */
  readonly minutesAt24PerMinute: number;
  readonly csvRows: number;
  readonly csvBytes: number;
}

/**
 * An export of an address with `count` mined transactions (STX in and out, a token in every fifth), through the app's
 * own download and CSV code against the devnet over HTTP, the store on fake-indexeddb.
 */
export async function measureHistoryExport(count: number): Promise<HistoryFigures> {
  const devnet = await startDevnet({ port: 0, blockMs: null });
  try {
    const { chain } = devnet.node;
    const [subject, ...others] = chain.accounts.people;
    const me = subject!.address;
    const token = chain.assets.tokens[0]!;
    for (let n = 0; n < count; n++) {
      const other = others[n % others.length]!.address;
      if (n % 5 === 4) await chain.submit(other, { kind: 'ft', token, recipient: me, amount: BigInt(n + 1), memo: '' });
      else if (n % 2 === 0)
        await chain.submit(other, { kind: 'stx', recipient: me, amount: BigInt(1000 + n), memo: `in ${n}` });
      else await chain.submit(me, { kind: 'stx', recipient: other, amount: BigInt(100 + n), memo: `out ${n}` });
      if (n % 25 === 24) chain.mine();
    }
    while (chain.pending().length > 0) chain.mine();

    const limits = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 8, perMinute: 1_000_000 };
    const node: NodeConfig = { network: 'testnet', url: devnet.url, name: 'Bench devnet', apiKey: null, limits };
    const rest = new StacksRestClient(node, new HostScheduler(limits));
    const store = new IdbHistoryStore(createStore('stacks-watch:history:bench', 'chunks'));
    const started = performance.now();
    const done = await downloadHistory({ rest, store, network: 'testnet', principal: me, perMinute: 24 });
    const activities = (await store.chunks(done.progress)).flat();
    const csv = koinlyCsv(
      [{ address: { principal: me, name: 'Bench' }, activities }],
      { from: null, until: null },
      () => ({
        name: token.name,
        symbol: token.symbol,
        decimals: token.decimals,
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    return {
      transactions: activities.length,
      secondsOnDevnet: Math.round(seconds * 10) / 10,
      requests: done.requests,
      minutesAt24PerMinute: Math.round((done.requests / 24) * 10) / 10,
      csvRows: csv.split('\r\n').length - 2,
      csvBytes: csv.length,
    };
  } finally {
    await devnet.close();
  }
}
