import { describe, expect, it } from 'vitest';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { countOnce, notificationsShown, openWatching, settledLog, transfersWithDrops } from './support/alerts.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null });
const TRANSFERS = 500;
const DROPS = 20;

describe('alerts under faults: every transfer told exactly once', () => {
  it(`${TRANSFERS} transfers with ${DROPS} socket drops`, async () => {
    const people = harness.devnet.node.chain.accounts.people.map(({ address, label }) => ({ address, label }));
    const page = await openWatching(harness.browser.context, harness.server.url, people);
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error')
        console.log('[page]', message.text().slice(0, 300));
    });
    const load = await transfersWithDrops(harness.devnet, people, { transfers: TRANSFERS, drops: DROPS, seed: 1 });
    const log = await settledLog(page, load.expected).catch((error: Error) => {
      const indexes = load.txIds.flatMap((txId, index) => (error.message.includes(txId) ? [index] : []));
      throw new Error(`${error.message}; transfer numbers ${indexes.join(', ')}`);
    });
    const counts = countOnce(log, await notificationsShown(page), load.expected);
    console.log(
      `[alerts] ${TRANSFERS} transfers, ${DROPS} drops:`,
      JSON.stringify({ ...counts, unexpected: counts.unexpected.length }),
    );
    expect(counts).toMatchObject({
      logEntries: load.expected.size,
      unexpected: [],
      missingFromLog: [],
      repeatedStates: [],
      notShown: [],
      shownTwice: [],
    });
    await page.close();
  }, 240_000);
});
