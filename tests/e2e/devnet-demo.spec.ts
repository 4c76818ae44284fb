import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { axeViolations } from './support/app-page.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, screenshot } from './support/layout.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const harness = serveAppWithDevnetForFile({ blockMs: 400, activity: true, shell: true });

describe('the app started next to the local devnet', () => {
  it('offers the demo accounts in one tap, and the devnet is producing activity for them', async () => {
    const page = await harness.browser.context.newPage();
    await page.goto(harness.server.url);
    const accounts = harness.devnet.node.chain.accounts.all;
    const watchAll = page.getByRole('button', { name: 'Add the demo accounts' });
    await watchAll.waitFor();
    expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);
    // The first thing a new user reads: the card's words keep a readable width on every screen, the button beside
    // or under them (at 320 px they once stood one letter a line).
    for (const scheme of ['light', 'dark'] as const)
      for (const size of [
        { width: 320, height: 700 },
        { width: 390, height: 844 },
        { width: 1366, height: 900 },
      ]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(size);
        const words = await page.locator('.devnet-text').boundingBox();
        expect(words!.width, `${size.width} px`).toBeGreaterThan(150);
        expect(words!.height, `${size.width} px`).toBeLessThan(80);
        expect((await layoutReport(page)).overflow).toBe(0);
        await screenshot(page, `first-open-${size.width}x${size.height}-${scheme}`);
      }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 390, height: 844 });
    await watchAll.click();
    // Nothing left to offer: the card goes, its words said once in the screen's status line, the focus on the list
    // the accounts joined (not lost with the button).
    await page
      .getByRole('status')
      .filter({ hasText: `Now watching ${accounts.length} demo accounts.` })
      .waitFor();
    expect(await page.locator('.devnet-card').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('watchlist-heading');
    expect(await page.getByRole('listitem').count()).toBe(accounts.length);
    await screenshot(page, 'demo-accounts-added-390x844-light');
    await page.setViewportSize({ width: 1366, height: 900 });
    await screenshot(page, 'demo-accounts-added-1366x900-light');
    // One taken off the list: while its Undo shows the card stays away (the removal may be taken back); once the Undo
    // has gone the card is back with what is left to add, and gone again once it is added.
    const carol = accounts.find((account) => account.label === 'Carol')!;
    await page.getByRole('button', { name: `Actions for ${carol.label}` }).click();
    await page.getByRole('button', { name: `Remove ${carol.label}` }).click();
    await page.locator('.undo-bar').waitFor();
    expect(await page.locator('.devnet-card').count()).toBe(0);
    await page.mouse.move(0, 0);
    await page.locator('.undo-bar').waitFor({ state: 'detached', timeout: 60_000 });
    await page.getByRole('button', { name: 'Add 1 more' }).click();
    await page.getByRole('status').filter({ hasText: 'Now watching 1 demo account.' }).waitFor();
    expect(await page.locator('.devnet-card').count()).toBe(0);
    expect(await page.getByRole('listitem').count()).toBe(accounts.length);
    // All on the devnet's testnet: the totals name the network once, no row repeats it.
    expect(await page.locator('.totals dt').allTextContents()).toEqual([`Testnet (${accounts.length})`]);
    expect(await page.getByRole('listitem').filter({ hasText: 'Treasury (2-of-3)' }).textContent()).not.toContain(
      'Testnet',
    );

    const alice = accounts[0]!.address;
    const heightWhenAdded = harness.devnet.node.chain.tip.height;
    await expect
      .poll(
        async () => {
          const response = await fetch(`${harness.devnet.url}/extended/v3/principals/${alice}/transactions?limit=1`);
          const { results } = (await response.json()) as { results: { transaction: { block: { height: number } } }[] };
          return results[0]?.transaction.block.height ?? 0;
        },
        { interval: 250 },
      )
      .toBeGreaterThan(heightWhenAdded);
    await page.close();
  });
});
