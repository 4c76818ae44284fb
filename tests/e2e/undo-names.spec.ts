/**
 * The Undo after a removal names the address as the list did a moment before: here by a BNS name the app learned after
 * the address was added (the devnet registers treasury.btc; the engine learns it when a watched address pays it).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let page: Page;

/** Adds `address` through the sheet, with no label. */
async function watch(address: string): Promise<void> {
  await page.getByRole('button', { name: 'Add address' }).click();
  await page.getByLabel('Address').fill(address);
  await page.getByRole('button', { name: 'Watch' }).click();
  await page.getByRole('button', { name: `Actions for ${address}` }).waitFor();
}

describe('the Undo names what it took off the list', () => {
  it('by the BNS name learned since the address was added, at 390 and 1366 px', async () => {
    const { accounts, names } = harness.devnet.node.chain;
    const [alice] = accounts.people;
    const treasury = accounts.treasury.address;
    // The devnet's own registry is the truth of the name.
    const registered = [...names].find(([, owner]) => owner === treasury)?.[0];
    expect(registered).toBe('treasury.btc');
    page = await harness.browser.context.newPage();
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    await watch(alice!.address);
    await watch(treasury);
    await waitForLive(page);
    // Alice pays the treasury: the engine looks up the name of the party she paid.
    await control(harness.devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: treasury,
      amount: '1000000',
    });
    await control(harness.devnet, '/devnet/mine');
    const actions = page.getByRole('button', { name: `Actions for ${registered}` });
    await actions.waitFor();
    for (const size of [
      { width: 390, height: 844 },
      { width: 1366, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await actions.click();
      await page.getByRole('button', { name: `Remove ${registered}` }).click();
      const bar = page.locator('.undo-bar');
      expect(await bar.locator('span').textContent()).toBe(`Removed “${registered}”.`);
      await screenshot(page, `undo-learned-name-${size.width}x${size.height}`);
      await bar.getByRole('button', { name: 'Undo' }).click();
      await actions.waitFor();
    }
  });
});
