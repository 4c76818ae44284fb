/**
 * IndexedDB refusing every write for a while (a full disk raises QuotaExceededError from `put`), in the middle of a
 * burst of transfers: the alerts wait for storage and then arrive, each in the inbox once and shown once. The
 * devnet's ledger says which alerts there must be.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openWorld } from './support/harness.ts';
import {
  countOnce,
  notificationsEverShown,
  openWatching,
  settledLog,
  sleep,
  transfersWithDrops,
} from './support/alerts.ts';

const TRANSFERS = 160;

/** Makes every IndexedDB `put` of the page throw, as a full quota does; counts the refused writes. */
const refuseWrites = (page: Page) =>
  page.evaluate(() => {
    const state = window as unknown as { refused: number; restorePut: () => void };
    const put = IDBObjectStore.prototype.put;
    state.refused = 0;
    state.restorePut = () => (IDBObjectStore.prototype.put = put);
    IDBObjectStore.prototype.put = () => {
      state.refused += 1;
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
  });

const refused = (page: Page) => page.evaluate(() => (window as unknown as { refused: number }).refused);
const allowWrites = (page: Page) => page.evaluate(() => (window as unknown as { restorePut: () => void }).restorePut());

describe('alerts while IndexedDB refuses writes', () => {
  it('a burst during the refusal: every alert stored once and shown once after writes resume', async () => {
    const world = await openWorld({ blockMs: null });
    try {
      const people = world.devnet.node.chain.accounts.people.map(({ address, label }) => ({ address, label }));
      const page = await openWatching(world.browser.context, world.server.url, people);
      const chain = world.devnet.node.chain;
      let refusedWrites = 0;
      let blocksWhileRefused = 0;
      const load = await transfersWithDrops(world.devnet, people, {
        transfers: TRANSFERS,
        drops: 0,
        seed: 7,
        during: async () => {
          await refuseWrites(page);
          const from = chain.tip.height;
          // Refused until blocks were mined meanwhile and the app met the refusal; then writes resume.
          for (let tries = 0; (await refused(page)) === 0 || chain.tip.height < from + 2; tries++) {
            if (tries > 600) throw new Error('the app never wrote while IndexedDB refused, or no block was mined');
            await sleep(50);
          }
          refusedWrites = await refused(page);
          blocksWhileRefused = chain.tip.height - from;
          await allowWrites(page);
        },
      });
      const log = await settledLog(page, load.expected, (txId) => {
        const state = chain.tx(txId)?.state;
        return state?.kind === 'confirmed' ? `block ${state.block.height}` : String(state?.kind);
      });
      const counts = countOnce(log, await notificationsEverShown(page), load.expected);
      console.log(
        '[alerts] IndexedDB refusing writes:',
        JSON.stringify({ ...counts, unexpected: counts.unexpected.length, refusedWrites, blocksWhileRefused }),
      );
      expect(refusedWrites).toBeGreaterThan(0);
      expect(counts).toMatchObject({
        logEntries: load.expected.size,
        unexpected: [],
        missingFromLog: [],
        repeatedStates: [],
        notShown: [],
        shownTwice: [],
      });
    } finally {
      await world.close();
    }
  });
});
