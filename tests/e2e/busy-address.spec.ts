import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/app-page.ts';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { howShown, layoutReport, screenshot } from './support/layout.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
/** Enough mined transfers that Alice's activity list is several screens long. */
const TRANSFERS = 30;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;

const people = () => harness.devnet.node.chain.accounts.people;
const row = (name: string) => page.locator('.watch-row').filter({ has: page.getByText(name, { exact: true }) });

/** Where each loaded row's STX amount ends, and whether the row carries a "pending" marker. */
const amountEdges = () =>
  page.locator('.watch-row').evaluateAll((rows) =>
    rows.flatMap((item) => {
      const amount = item.querySelector('.stx-available');
      if (!amount) return [];
      return [
        {
          right: Math.round(amount.getBoundingClientRect().right * 2) / 2,
          pending: item.querySelector('.badge-pending') !== null,
          figures: getComputedStyle(amount).fontVariantNumeric,
        },
      ];
    }),
  );

async function openHome(size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.getByRole('link', { name: 'Stacks Watch' }).click();
  await row('Alice').getByText('1 pending').waitFor();
}

/** Alice's page at `size`, once her whole activity is listed. */
async function openAlice(size: { width: number; height: number }) {
  await openHome(size);
  await row('Alice').getByRole('link').click();
  const activity = page.getByRole('region', { name: 'Activity' });
  await expect.poll(() => activity.locator('.activity-row').count()).toBeGreaterThan(TRANSFERS);
  return activity;
}

describe('a busy address, on a phone and a desktop', () => {
  // Every test starts from here and opens the screen it looks at: each one passes alone, in any order.
  beforeAll(async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    const [alice, bob] = people();
    for (let n = 1; n <= TRANSFERS; n++)
      await control(harness.devnet, '/devnet/transfer', {
        sender: bob!.address,
        recipient: alice!.address,
        amount: String(n * 1_000_000 + n),
      });
    while (harness.devnet.node.chain.pending().length > 0) await control(harness.devnet, '/devnet/mine');
    await control(harness.devnet, '/devnet/transfer', {
      sender: bob!.address,
      recipient: alice!.address,
      amount: '5000000',
    });
    await row('Alice').getByText('1 pending').waitFor();
  });

  for (const size of [DESKTOP, PHONE]) {
    it(`lines the amounts up at ${size.width}×${size.height}, whether or not a row has a "pending" marker`, async () => {
      await openHome(size);
      const edges = await amountEdges();
      expect(edges.some((edge) => edge.pending)).toBe(true);
      expect(edges.some((edge) => !edge.pending)).toBe(true);
      expect(new Set(edges.map((edge) => edge.right)).size, JSON.stringify(edges)).toBe(1);
      expect(edges.every((edge) => edge.figures.includes('tabular-nums'))).toBe(true);
      await screenshot(page, `busy-home-${size.width}x${size.height}`);
    });
  }

  it('puts the alert rules where they are found on a wide screen: beside the long activity, in the first screen', async () => {
    const activity = await openAlice(DESKTOP);
    const alerts = page.getByRole('heading', { name: 'Alerts', exact: true });
    const [heading, list] = await Promise.all([alerts.boundingBox(), activity.boundingBox()]);
    expect(list!.height).toBeGreaterThan(DESKTOP.height * 2);
    expect(heading!.y + heading!.height).toBeLessThan(DESKTOP.height);
    expect(await page.getByRole('switch', { name: 'Alert me about this address' }).isVisible()).toBe(true);
    await screenshot(page, 'busy-address-1366x900');
  });

  it('keeps the watch list beside a long history in view, whole and uncovered, as the history scrolls on a desktop', async () => {
    const activity = await openAlice(DESKTOP);
    const nav = page.getByRole('navigation', { name: 'Watch list' });
    await nav.waitFor();
    const rows = activity.locator('.activity-row');
    // Down the history a screen at a time, as a reader scrolls it, to its last row.
    for (const fraction of [0.25, 0.5, 0.75, 1]) {
      const last = Math.ceil(((await rows.count()) - 1) * fraction);
      await rows.nth(last).evaluate((row) => row.scrollIntoView({ block: 'end' }));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      const shown = await howShown(nav);
      expect(shown, `at ${fraction * 100}% of the history`).toEqual({
        sticksOut: { top: 0, right: 0, bottom: 0, left: 0 },
        coveredBy: null,
      });
      // Not under the sticky header either: its top edge below the header's, its first entry where a click lands on it.
      const [box, header] = await Promise.all([nav.boundingBox(), page.locator('.app-header').boundingBox()]);
      expect(box!.y, `its top at ${fraction * 100}%`).toBeGreaterThanOrEqual(header!.y + header!.height);
      const first = nav.getByRole('link').first();
      expect(await howShown(first), `its first entry at ${fraction * 100}%`).toMatchObject({ coveredBy: null });
    }
    expect(await nav.getByRole('link', { name: /Alice/ }).getAttribute('aria-current')).toBe('page');
    await screenshot(page, 'busy-address-scrolled-1366x900');
  });

  it('has no side list on a phone: the page is one column, the header stays, nothing scrolls sideways', async () => {
    const activity = await openAlice(PHONE);
    expect(await page.getByRole('navigation', { name: 'Watch list' }).count()).toBe(0);
    await activity
      .locator('.activity-row')
      .last()
      .evaluate((row) => row.scrollIntoView({ block: 'end' }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(PHONE.height);
    expect(await howShown(page.locator('.app-header'))).toEqual({
      sticksOut: { top: 0, right: 0, bottom: 0, left: 0 },
      coveredBy: null,
    });
    const [list, main] = await Promise.all([activity.boundingBox(), page.locator('main').boundingBox()]);
    expect(list!.width).toBeGreaterThan(main!.width - 64);
    expect((await layoutReport(page)).overflow).toBe(0);
    await screenshot(page, 'busy-address-scrolled-390x844');
  });

  it('keeps them short on a phone, above the activity, the detailed rules one tap away', async () => {
    const activity = await openAlice(PHONE);
    const card = page.locator('.address-alerts');
    const [rules, list] = await Promise.all([card.boundingBox(), activity.boundingBox()]);
    expect(rules!.y).toBeLessThan(list!.y);
    expect(rules!.height).toBeLessThan(PHONE.height / 2);
    expect(await page.getByText('Received and sent · STX, tokens and NFTs').isVisible()).toBe(true);

    await card.getByText('What to tell').click();
    await card.getByRole('checkbox', { name: 'What it receives' }).waitFor();
    const report = await layoutReport(page);
    expect(report.overflow).toBe(0);
    expect(report.badControls).toEqual([]);
    expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);
    await card.getByRole('checkbox', { name: 'Also while pending in the mempool' }).uncheck();
    await card.getByText('Received and sent · STX, tokens and NFTs · staking', { exact: true }).waitFor();
    await screenshot(page, 'busy-address-rules-390x844');

    // A decimal comma is refused, said why, and nothing saved; the amount with a point is saved and summed up.
    const dust = card.getByLabel('Ignore incoming STX below (dust)');
    await dust.fill('1,5');
    await dust.press('Enter');
    expect(await card.getByRole('alert').textContent()).toBe(
      '“1,5”: write decimals with a point, like 1.5. A comma only groups thousands (1,000).',
    );
    expect(await card.locator('.alert-rules-summary').textContent()).toBe(
      'Received and sent · STX, tokens and NFTs · staking',
    );
    await screenshot(page, 'busy-address-dust-comma-390x844');
    await dust.fill('1.5');
    await dust.press('Enter');
    await card.getByText('Received and sent · STX, tokens and NFTs · staking · under 1.50 STX ignored').waitFor();
    expect(await card.getByRole('alert').count()).toBe(0);
    await dust.fill('');
    await dust.press('Enter');
    await card.getByText('Received and sent · STX, tokens and NFTs · staking', { exact: true }).waitFor();
  });
});
