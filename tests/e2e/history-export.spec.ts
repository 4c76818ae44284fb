import { readFileSync } from 'node:fs';
import type { Page, Response as PageResponse } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';
import { baseUnits, csvRecords } from '../support/csv-read.ts';
import { ledgerHistory } from '../support/ledger-history.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const TRANSACTIONS = 120;
/**
 * Carol's own, read under the gateway's budget: enough that the page's pace holds the export up half-way, where the
 * test reloads (with 40 the export finished within the first minute's requests, before the reload).
 */
const PACED_TRANSACTIONS = 120;
/** The budget the node's gateway enforces in the fault test, and the pace the user sets for it in Settings. */
const GATEWAY_BUDGET = 24;
const USER_PACE = 20;

const harness = serveAppWithDevnetForFile({ blockMs: null });
let page: Page;
const chain = () => harness.devnet.node.chain;
const dialog = () => page.getByRole('dialog', { name: /^Export .* as CSV$/ });
const row = (name: string) => page.locator('.watch-row').filter({ has: page.getByText(name, { exact: true }) });

/**
 * `count` mined transactions of `subject`: STX in from one person, STX out to another, a token in, one token transfer
 * it sends that fails (more than it holds): every kind a tax file tells apart. Ten a block.
 */
async function busy(subject: number, count: number): Promise<void> {
  const people = chain().accounts.people;
  const me = people[subject]!.address;
  const [other, third] = people.filter((_, index) => index !== subject).map((person) => person.address);
  const token = chain().assets.tokens[0]!;
  for (let n = 0; n < count; n++) {
    const kind = n === 7 ? 'fail' : n % 3;
    if (kind === 'fail') {
      const tooMuch = chain().state.ftBalance(me, token.assetIdentifier) + 1n;
      await chain().submit(me, { kind: 'ft', token, recipient: third!, amount: tooMuch, memo: 'too much' });
    } else if (kind === 0)
      await chain().submit(other!, {
        kind: 'stx',
        recipient: me,
        amount: BigInt(1_000_000 + n * 1_001),
        memo: `in ${n}`,
      });
    else if (kind === 1)
      await chain().submit(me, { kind: 'stx', recipient: third!, amount: BigInt(250_000 + n * 7), memo: `out ${n}` });
    else
      await chain().submit(other!, {
        kind: 'ft',
        token,
        recipient: me,
        amount: BigInt(10 ** token.decimals + n),
        memo: '',
      });
    if (n % 10 === 9) chain().mine();
  }
  while (chain().pending().length > 0) chain().mine();
}

async function saveCsv(): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 240_000 }),
    page.getByRole('button', { name: 'Save the CSV' }).click({ timeout: 240_000 }),
  ]);
  return readFileSync((await download.path())!, 'utf8');
}

/** The file against the devnet's ledger: every transaction of the address once, each amount and fee exactly. */
function expectLedger(csv: string, principal: string, atLeast: number): void {
  const records = csvRecords(csv);
  const token = chain().assets.tokens[0]!;
  const truth = ledgerHistory(chain(), principal).filter((tx) => tx.net.size > 0 || tx.fee > 0n);
  expect(truth.length).toBeGreaterThanOrEqual(atLeast);
  const ids = records.map((record) => record['TxHash']);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(truth.map((tx) => tx.txId).sort());
  const byId = new Map(records.map((record) => [record['TxHash']!, record]));
  for (const tx of truth) {
    const record = byId.get(tx.txId)!;
    const [[asset, net] = ['', 0n]] = tx.success ? [...tx.net] : [];
    const decimals = asset === 'STX' ? 6 : token.decimals;
    const currency = asset === 'STX' ? 'STX' : token.symbol;
    if (net < 0n)
      expect([record['Sent Currency'], baseUnits(record['Sent Amount']!, decimals)]).toEqual([currency, -net]);
    if (net > 0n)
      expect([record['Received Currency'], baseUnits(record['Received Amount']!, decimals)]).toEqual([currency, net]);
    if (net === 0n) expect([record['Sent Amount'], record['Received Amount']]).toEqual(['', '']);
    expect(record['Fee Amount'] === '' ? 0n : baseUnits(record['Fee Amount']!, 6), tx.txId).toBe(tx.fee);
  }
}

async function openExport(name: string): Promise<void> {
  await page.getByRole('link', { name: 'Stacks Watch' }).click();
  await row(name).getByRole('link').click();
  await page.getByRole('button', { name: 'Export CSV…' }).click();
}

describe('CSV export of a history', () => {
  it(`sets up: the demo accounts watched, ${TRANSACTIONS} mined transactions of Alice, ${PACED_TRANSACTIONS} of Carol`, async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await busy(0, TRANSACTIONS);
    await busy(2, PACED_TRANSACTIONS);
    // Hundreds of alerts unread: the bell's count reads 99+, and grows away from the bell, short of the next icon.
    const count = page.locator('.inbox-link .count [aria-hidden="true"]');
    await expect.poll(() => count.textContent(), { timeout: 60_000 }).toBe('99+');
    for (const size of [{ width: 320, height: 700 }, PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      const bellCovered = await page.evaluate(() => {
        const bell = document.querySelector('.inbox-link svg')!.getBoundingClientRect();
        const badge = document.querySelector('.inbox-link .count')!.getBoundingClientRect();
        const next = document.querySelector('.inbox-link + .header-link svg')?.getBoundingClientRect();
        const across = (a: DOMRect, b: DOMRect) =>
          Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
          Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
        return { bell: across(bell, badge) / (bell.width * bell.height), next: next ? across(next, badge) : 0 };
      });
      expect(bellCovered.bell, `${size.width} px: share of the bell under the count`).toBeLessThan(0.2);
      expect(bellCovered.next, `${size.width} px: the next icon under the count`).toBe(0);
      await screenshot(page, `header-99-unread-${size.width}`);
    }
    await page.setViewportSize(DESKTOP);
  }, 180_000);

  it('exports every transaction of an address once, amounts equal to the ledger, read back by another parser', async () => {
    const alice = chain().accounts.people[0]!.address;
    await openExport('Alice');
    await screenshot(page, 'history-export-dialog-1366x900');
    await dialog().getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByRole('button', { name: 'Save the CSV' }).waitFor({ timeout: 120_000 });
    await screenshot(page, 'history-export-ready-1366x900');
    expectLedger(await saveCsv(), alice, TRANSACTIONS);
    await dialog().getByRole('button', { name: 'Close' }).click();
  }, 180_000);

  it('refuses a date range backwards, saying which dates and what to do', async () => {
    await page.setViewportSize(PHONE);
    await openExport('Alice');
    await dialog().getByLabel('From', { exact: true }).fill('2026-03-02');
    await dialog().getByLabel('To', { exact: true }).fill('2026-03-01');
    await dialog().getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByText('The start date (2026-03-02) is after the end date (2026-03-01): swap them.').waitFor();
    await screenshot(page, 'history-export-dialog-390x844');
    await dialog().getByRole('button', { name: 'Close' }).click();
  });

  it(`with the node's gateway allowing ${GATEWAY_BUDGET} a minute: within budget, and resumed after a reload`, async () => {
    const carol = chain().accounts.people[2]!.address;
    await page.setViewportSize(DESKTOP);
    // Carol alone on the list: the engine's reread of every address on the node chosen below, at the page's pace of
    // 20 a minute, would take minutes of this test before the export it is about.
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    const others = (await page.locator('.watch-row').allInnerTexts()).length - 1;
    for (const name of ['Alice', 'Bob', 'Dave', 'Treasury (2-of-3)', 'Vault contract', 'Deployer']) {
      if ((await row(name).count()) === 0) continue;
      await page.getByRole('button', { name: `Actions for ${name}` }).click();
      await page.getByRole('button', { name: `Remove ${name}` }).click();
      await row(name).waitFor({ state: 'detached' });
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
      await openExport('Carol');
      await dialog().getByRole('button', { name: 'Export', exact: true }).click();
      const kept = page.locator('.export-progress progress');
      keptAtReload = 0;
      await expect
        .poll(
          async () => {
            const value = await kept.getAttribute('value', { timeout: 1_000 }).catch(() => null);
            keptAtReload = Number(value);
            return value;
          },
          { timeout: 120_000 },
        )
        .toMatch(/^[4-9]\d$/);
      reloadedAt = Date.now();
      await page.reload();
      await waitForLive(page);
      await page.getByRole('button', { name: 'Export CSV…' }).click();
      await page.getByText('Resumed where it stopped.').waitFor({ timeout: 30_000 });
      await screenshot(page, 'history-export-progress-1366x900');
      expect(await dialog().textContent()).not.toContain('Not in the file');
      expectLedger(await saveCsv(), carol, PACED_TRANSACTIONS);
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
