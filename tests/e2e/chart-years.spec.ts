/**
 * A balance history that spans years says its years on the chart's time axis: "12 Mar" twice, for two different
 * Marches, would be a lie. The years come from the devnet's own block times.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { LOOK_SIZES, screenshot } from './support/layout.ts';

const YEAR_MS = 365 * 86_400_000;
/** How far behind the wall clock the devnet's clock runs: its blocks are mined two years ago, then one, then now. */
let behindMs = 2 * YEAR_MS;
const harness = serveAppWithDevnetForFile({
  blockMs: null,
  activity: false,
  now: () => Date.now() - behindMs,
  shell: true,
});
let page: Page;

const chain = () => harness.devnet.node.chain;

describe('the balance chart over years', () => {
  it('writes the year of each end of a history two years long, as the ledger dates them', async () => {
    const [alice, bob] = chain().accounts.people;
    const paid: number[] = [];
    for (const behind of [2 * YEAR_MS, YEAR_MS, 0]) {
      behindMs = behind;
      await chain().submit(bob!.address, { kind: 'stx', recipient: alice!.address, amount: 1_000_000_000n, memo: '' });
      paid.push(chain().mine().time);
    }
    page = await harness.browser.context.newPage();
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await page
      .locator('.watch-row')
      .filter({ has: page.getByText('Alice', { exact: true }) })
      .getByRole('link')
      .click();
    const axis = page.locator('.chart-axis');
    // The years by the ledger's block times, as the page's own calendar writes them.
    const years = await page.evaluate(
      (times) => times.map((seconds) => String(new Date(seconds * 1000).getFullYear())),
      [paid[0]!, paid.at(-1)!],
    );
    expect(years[0]).not.toBe(years[1]);
    await expect
      .poll(async () => (await axis.allTextContents()).join(' | '))
      .toMatch(new RegExp(`${years[0]}.*${years[1]}$`));
    for (const size of LOOK_SIZES)
      for (const scheme of ['light', 'dark'] as const) {
        await page.setViewportSize(size);
        await page.emulateMedia({ colorScheme: scheme });
        await page.locator('.chart-axis').first().scrollIntoViewIfNeeded();
        await screenshot(page, `chart-years-${size.width}x${size.height}-${scheme}`);
      }
  });
});
