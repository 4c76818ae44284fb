import type { Page, Response as PageResponse } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { control, waitForLive } from '../e2e/support/alerts.ts';
import { serveAppWithDevnetForFile } from '../e2e/support/harness.ts';
import { busy, expectLedger, exportDialog, openExport, saveCsv, watchRow } from '../e2e/support/history-export.ts';
import { screenshot } from '../e2e/support/layout.ts';

/**
 * The CSV export under a node gateway's budget, resumed across a reload (`npm run soak`: it spans minutes of wall
 * clock at 20 requests a minute; tests/e2e/history-export.spec.ts checks the export itself in `npm test`).
 */
const DESKTOP = { width: 1366, height: 900 };
/**
 * Carol's own, read under the gateway's budget: enough that the page's pace holds the export up half-way, where the
 * test reloads (with 40 the export finished within the first minute's requests, before the reload).
 */
const PACED_TRANSACTIONS = 120;
/** The budget the node's gateway enforces, and the pace the user sets for it in Settings. */
const GATEWAY_BUDGET = 24;
const USER_PACE = 20;

const harness = serveAppWithDevnetForFile({ blockMs: null });
let page: Page;
const chain = () => harness.devnet.node.chain;
const dialog = () => exportDialog(page);

describe('CSV export of a history under a gateway budget', () => {
  it(`sets up: the demo accounts watched, ${PACED_TRANSACTIONS} mined transactions of Alice, as many of Carol`, async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    // The chain this run was sized on (it ran after the plain export's set-up): Alice's pay Carol too, so that her
    // history holds enough pages for the page's pace to hold the export up half-way, where the test reloads.
    await busy(harness.devnet, 0, PACED_TRANSACTIONS);
    await busy(harness.devnet, 2, PACED_TRANSACTIONS);
  }, 180_000);

  it(`with the node's gateway allowing ${GATEWAY_BUDGET} a minute: within budget, and resumed after a reload`, async () => {
    const carol = chain().accounts.people[2]!.address;
    await page.setViewportSize(DESKTOP);
    // Carol alone on the list: the engine's reread of every address on the node chosen below, at the page's pace of
    // 20 a minute, would take minutes of this test before the export it is about.
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    const others = (await page.locator('.watch-row').allInnerTexts()).length - 1;
    for (const name of ['Alice', 'Bob', 'Dave', 'Treasury (2-of-3)', 'Vault contract', 'Deployer']) {
      if ((await watchRow(page, name).count()) === 0) continue;
      await page.getByRole('button', { name: `Actions for ${name}` }).click();
      await page.getByRole('button', { name: `Remove ${name}` }).click();
      await watchRow(page, name).waitFor({ state: 'detached' });
    }
    expect(others).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.watch-row').count()).toBe(1);
    await page.getByRole('link', { name: 'Settings' }).click();
    const testnet = page.getByRole('form', { name: 'Testnet node' });
    await testnet.getByLabel('Custom node URL').fill(harness.devnet.url);
    await testnet.getByLabel('Requests a minute (optional)').fill(String(USER_PACE));
    await testnet.getByRole('button', { name: 'Use this node' }).click();
    await testnet.getByText(`Testnet addresses now use ${harness.devnet.url}`).waitFor();
    await control(harness.devnet, '/devnet/faults', { budgetPerMinute: GATEWAY_BUDGET });
    /** Each request as the node saw it: when it arrived, when and how it was answered. */
    const answered: { at: number; answeredAt: number; status: number; path: string }[] = [];
    let reloadedAt = Infinity;
    let exportStartedAt = 0;
    let keptAtReload: number;
    /**
     * When the page sent each request to the node, by the browser's own clock (Chromium's network log, not the app's
     * pacer): the node's arrival times carry this test process's event-loop stalls, seconds on a loaded machine.
     */
    const sent: { at: number; path: string }[] = [];
    const devnetOrigin = new URL(harness.devnet.url).origin;
    const onResponse = (response: PageResponse) => {
      const url = new URL(response.url());
      if (url.origin === devnetOrigin && (url.pathname.startsWith('/extended') || url.pathname.startsWith('/v1')))
        sent.push({ at: response.request().timing().startTime, path: url.pathname + url.search });
    };
    page.on('response', onResponse);
    const stop = harness.devnet.node.observe((request, response, arrivedAt) => {
      if (request.url.pathname.startsWith('/extended') || request.url.pathname.startsWith('/v1'))
        answered.push({
          at: arrivedAt,
          answeredAt: Date.now(),
          status: response.status,
          path: `${request.method} ${request.url.pathname}${request.url.search}`,
        });
    });
    try {
      // The engine first reads every address again on the node just chosen: the export starts once it is done, so that
      // what is read after the reload below is the export's own (the engine's reconcile then reads newest pages only).
      await expect
        .poll(() => Date.now() - Math.max(0, ...answered.map((answer) => answer.answeredAt)), {
          timeout: 180_000,
          interval: 500,
        })
        .toBeGreaterThan(5_000);
      exportStartedAt = Date.now();
      await openExport(page, 'Carol');
      await dialog().getByRole('button', { name: 'Export', exact: true }).click();
      const kept = page.locator('.export-progress progress');
      keptAtReload = 0;
      let words: string | null = null;
      // Half-way: the progress names between 40 and 99 of Carol's 159 read (the export waits first for the minute the
      // engine spent, then reads a page of 20 at each of the pace's turns).
      await expect
        .poll(
          async () => {
            const value = await kept.getAttribute('value', { timeout: 1_000 }).catch(() => null);
            words = await dialog()
              .textContent({ timeout: 1_000 })
              .catch(() => null);
            keptAtReload = Number(value);
            return value ?? '';
          },
          { timeout: 240_000 },
        )
        .toMatch(/^[4-9]\d$/)
        .catch((error: unknown) => {
          const since = answered.filter((answer) => answer.at >= exportStartedAt);
          const lines = since.map((answer) => `${answer.at - exportStartedAt} ms ${answer.status} ${answer.path}`);
          throw new Error(
            `${String(error)}\nthe dialog said: ${words}\nthe node answered since the export began:\n${lines.join('\n')}`,
          );
        });
      reloadedAt = Date.now();
      await page.reload();
      await waitForLive(page);
      await page.getByRole('button', { name: 'Export CSV…' }).click();
      // Resumed: still reading, or read to the end already and waiting to be saved.
      await page
        .getByText(/^(Resumed where it stopped\.|The export you started earlier .* is ready, not saved yet\.)$/)
        .waitFor({ timeout: 30_000 });
      await screenshot(page, 'history-export-progress-1366x900');
      expect(await dialog().textContent()).not.toContain('Not all in the file');
      expectLedger(harness.devnet, await saveCsv(page), carol, PACED_TRANSACTIONS);
    } finally {
      stop();
      page.off('response', onResponse);
      await control(harness.devnet, '/devnet/faults', { budgetPerMinute: null });
    }
    // The reloaded page goes on counting the minute the page before it spent (the starts are kept on the device), so
    // the node refuses nothing, before the reload or after it.
    const refused = answered.filter((answer) => answer.status === 429);
    // From the export's start (the engine on the node chosen and quiet), engine and export share one pacer: the page's
    // pace (20, under the gateway's 24) rules both, in any minute, as the browser sent the requests (its own network
    // log). A request counts until a minute after its answer, so the way there (the browser holding one for a free
    // connection, this process's event loop busy) cannot bunch them into one minute.
    const busiestMinuteOf = (requests: readonly { at: number; path: string }[]) => {
      const sorted = requests.filter((request) => request.at >= exportStartedAt).sort((a, b) => a.at - b.at);
      const windows = sorted.map((first) => sorted.filter((a) => a.at >= first.at && a.at < first.at + 60_000));
      const busiest = windows.reduce((most, window) => (window.length > most.length ? window : most), []);
      return {
        paced: sorted.length,
        count: busiest.length,
        said: busiest.map((a) => `${a.at - busiest[0]!.at} ms ${a.path}`).join('; '),
      };
    };
    const sentMinute = busiestMinuteOf(sent);
    const arrivedMinute = busiestMinuteOf(answered);
    // More than a minute's worth after the export's start: the busiest minute below was really paced.
    expect(sentMinute.paced).toBeGreaterThan(USER_PACE);
    expect(sentMinute.count, `the busiest minute, as sent: ${sentMinute.said}`).toBeLessThanOrEqual(USER_PACE);
    // And as the node saw them arrive, across the reload too: the requests the page going away tore down had reached
    // the node, and the next page counts them (it counted 21 when the page going away took them back).
    expect(arrivedMinute.count, `the busiest minute, as arrived: ${arrivedMinute.said}`).toBeLessThanOrEqual(USER_PACE);
    expect(refused).toEqual([]);
    const firstPages = answered.filter(
      (answer) => answer.path.includes(`/principals/${carol}/transactions`) && !answer.path.includes('cursor='),
    );
    // After the reload the export went on reading older pages (the resume from the stored cursor is counted request by
    // request in tests/monitor/history/: here the engine's own reconcile reads some of the same pages meanwhile).
    const olderAfter = answered.filter(
      (answer) =>
        answer.at > reloadedAt &&
        answer.path.includes(`/principals/${carol}/transactions`) &&
        answer.path.includes('cursor='),
    );
    expect(olderAfter.length).toBeGreaterThan(0);
    console.log(
      `[history] export under a ${GATEWAY_BUDGET}/min gateway: ${answered.length} requests, ${firstPages.length} newest-page reads, ${olderAfter.length} older pages read after the reload at ${keptAtReload} kept, ${refused.length} refused, at most ${sentMinute.count} sent and ${arrivedMinute.count} arrived in a minute`,
    );
  }, 480_000);
});
