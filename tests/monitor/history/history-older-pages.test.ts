import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../mocks/devnet/random.ts';
import { downloadHistory } from '../../../src/monitor/history-download.ts';
import { IdbHistoryStore } from '../../../src/store/history-store.ts';
import { ledgerHistory } from '../../support/ledger-history.ts';
import { rig, serveDevnetThroughMsw } from '../harness.ts';
import { Traffic } from '../truth/traffic.ts';

serveDevnetThroughMsw();

const SEED = process.env['HISTORY_SEED'] ?? '1';

describe(`the address page reading on, a few older pages at a time (seed ${SEED})`, () => {
  it('reads only the pages asked for each time, in order, until the oldest, each transaction once', async () => {
    const harness = rig();
    const { chain } = harness.devnet;
    const random = new SeededRandom(`older-pages-${SEED}`);
    const traffic = new Traffic(chain, random);
    for (let n = 0; n < 300; n++) {
      await traffic.act();
      if (random.chance(0.3)) chain.mine();
    }
    while (chain.pending().length > 0) chain.mine();
    const alice = chain.accounts.people[0]!.address;
    const truth = ledgerHistory(chain, alice).map((tx) => tx.txId);
    expect(truth.length, `seed ${SEED}`).toBeGreaterThan(60);

    const store = new IdbHistoryStore(createStore('stacks-watch:history:older-pages', 'chunks'));
    const read = () =>
      downloadHistory({
        rest: harness.rest,
        store,
        network: 'testnet',
        principal: alice,
        perMinute: 24,
        olderPages: 2,
      });
    const first = await read();
    expect(first.progress.kept, `seed ${SEED}`).toBe(40);
    expect(first.progress.complete).toBe(false);
    for (let reads = 1; !(await store.progress('testnet', alice)).complete; reads++) {
      expect(reads, `seed ${SEED}: more reads than pages`).toBeLessThan(truth.length);
      const before = (await store.progress('testnet', alice)).kept;
      const after = (await read()).progress;
      // Two pages of 20 each time, the last one shorter.
      expect(after.kept - before, `seed ${SEED}`).toBe(Math.min(40, truth.length - before));
    }
    const progress = await store.progress('testnet', alice);
    const kept = (await store.chunks(progress)).flat().map((activity) => activity.txId);
    expect(kept, `seed ${SEED}`).toEqual(truth);
  });
});
