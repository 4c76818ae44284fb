import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshotsEverywhere } from './support/layout.ts';

/*
 * What a newcomer met on a phone. The add sheet, when what it says names a long contract principal (an address and a 40-character
 * contract name, with no space to break at): the words wrap inside the sheet, and the field and Watch stay whole;
 * the sheet never scrolls sideways.
 */
const CONTRACT = 'no-such-contract-with-a-very-long-name-x1';
const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let page: Page;

/** What sticks out past the sheet's right edge, and how far the sheet scrolls sideways. */
const pastTheSheet = () =>
  page.evaluate(() => {
    const sheet = document.querySelector('dialog.sheet')!;
    const edge = sheet.getBoundingClientRect().right;
    const out = [...sheet.querySelectorAll('[role=alert], input, select, button')]
      .filter((element) => element.getBoundingClientRect().right > edge + 0.5)
      .map((element) => element.textContent || element.getAttribute('name') || element.tagName);
    const body = sheet.querySelector('.sheet-body')!;
    return {
      out,
      scrolls: Math.max(sheet.scrollWidth - sheet.clientWidth, body.scrollWidth - body.clientWidth),
      page: document.documentElement.scrollWidth - window.innerWidth,
    };
  });

describe('the add sheet on a phone', () => {
  it('keeps an error naming a long contract principal inside it, wrapped, with the field and Watch whole', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    const deployer = harness.devnet.node.chain.accounts.deployer.address;
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address to watch (or a BNS name)').fill(`${deployer}.${CONTRACT.slice(0, 40)}`);
    await page.getByRole('button', { name: 'Watch' }).click();
    await page
      .getByRole('alert')
      .getByText(/^No contract deployed at /)
      .waitFor();
    await screenshotsEverywhere(page, 'add-sheet-long-contract', {
      check: async ({ size }) => {
        const report = await pastTheSheet();
        expect(report, `${size.width} px`).toEqual({ out: [], scrolls: 0, page: 0 });
      },
    });
  });

  it('keeps the devnet card’s × on the card’s first line after a demo account is removed', async () => {
    const card = page.locator('.devnet-card');
    const close = card.getByRole('button', { name: 'Hide the devnet card' });
    const heading = card.getByRole('heading', { name: 'Local devnet' });
    /** How far the × sits below the heading's line (0: beside it). */
    const closeBelowHeading = async () => {
      const [x, h] = [(await close.boundingBox())!, (await heading.boundingBox())!];
      return Math.max(0, x.y - (h.y + h.height));
    };
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    const row = page.locator('.watch-row').filter({ has: page.getByText('Alice', { exact: true }) });
    await row.getByRole('button', { name: 'Actions for Alice' }).click();
    await row.getByRole('button', { name: 'Remove Alice' }).click();
    await card.getByRole('button', { name: 'Add 1 more' }).waitFor();
    await screenshotsEverywhere(page, 'devnet-card-after-removal', {
      show: card,
      check: async ({ size }) => expect(await closeBelowHeading(), `${size.width} px`).toBe(0),
    });
  });

  it('keeps the focus on a row’s Up when the row reaches the top of the list', async () => {
    const row = page.locator('.watch-row').filter({ has: page.getByText('Carol', { exact: true }) });
    await row.getByRole('button', { name: 'Actions for Carol' }).click();
    const up = row.getByRole('button', { name: 'Move Carol up' });
    await up.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.watch-row').first().textContent()).toMatch(/^Carol/);
    expect(await up.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await up.getAttribute('aria-disabled')).toBe('true');
    // Pressed again at the top: nothing moves, the focus stays.
    await page.keyboard.press('Enter');
    expect(await up.evaluate((button) => button === document.activeElement)).toBe(true);
  });
});
