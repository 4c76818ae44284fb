import type { Page } from 'playwright-core';
import { csvRecords } from '../support/csv-read.ts';
import { describe, expect, it } from 'vitest';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { busy, expectLedger, exportAndSave, exportDialog, openExport } from './support/history-export.ts';
import { screenshot } from './support/layout.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const TRANSACTIONS = 120;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
const chain = () => harness.devnet.node.chain;
const dialog = () => exportDialog(page);

// The export under a node's gateway budget, resumed across a reload, spans minutes of wall clock at 20 requests a
// minute: it runs in `npm run soak` (tests/soak/history-gateway.spec.ts).
describe('CSV export of a history', () => {
  it(`sets up: the demo accounts watched, ${TRANSACTIONS} mined transactions of Alice`, async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await busy(harness.devnet, 0, TRANSACTIONS);
    // Hundreds of alerts unread: the bell's count reads 99+, and grows away from the bell, short of the next icon.
    const count = page.locator('.inbox-link .count [aria-hidden="true"]');
    await expect.poll(() => count.textContent()).toBe('99+');
    // On the Settings screen too, where the Settings button is drawn as a filled box: the count stays off it.
    for (const screen of ['home', 'settings'] as const) {
      if (screen === 'settings') await page.getByRole('link', { name: 'Settings' }).click();
      for (const size of [{ width: 320, height: 700 }, PHONE, DESKTOP]) {
        await page.setViewportSize(size);
        const bellCovered = await page.evaluate(() => {
          const bell = document.querySelector('.inbox-link svg')!.getBoundingClientRect();
          const badge = document.querySelector('.inbox-link .count')!.getBoundingClientRect();
          const next = document.querySelector('.inbox-link + .header-link')?.getBoundingClientRect();
          const across = (a: DOMRect, b: DOMRect) =>
            Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
            Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
          return { bell: across(bell, badge) / (bell.width * bell.height), next: next ? across(next, badge) : 0 };
        });
        expect(bellCovered.bell, `${screen}, ${size.width} px: share of the bell under the count`).toBeLessThan(0.2);
        expect(bellCovered.next, `${screen}, ${size.width} px: the next button under the count`).toBe(0);
        await screenshot(page, `header-99-unread-${screen}-${size.width}`);
      }
    }
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.setViewportSize(DESKTOP);
  });

  it('saves the file when the user presses Export: every transaction once, amounts equal to the ledger', async () => {
    const alice = chain().accounts.people[0]!.address;
    await openExport(page, 'Alice');
    await screenshot(page, 'history-export-dialog-1366x900');
    // The one press: the history is read, and the file saved, with no second button to find, not even for a moment.
    await page.evaluate(() => {
      const seen = document.createElement('meta');
      seen.id = 'save-button-seen';
      new MutationObserver(() => {
        const buttons = [...document.querySelectorAll('.export-dialog button')];
        if (buttons.some((button) => button.textContent?.trim() === 'Save the CSV')) document.head.append(seen);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const csv = await exportAndSave(page);
    expect(csv.startsWith('\uFEFF'), 'the file is marked as UTF-8, as the ticked box says').toBe(true);
    expectLedger(harness.devnet, csv, alice, TRANSACTIONS);
    expect(await dialog().getByRole('button', { name: 'Save the CSV' }).count()).toBe(0);
    expect(await page.locator('#save-button-seen').count(), '"Save the CSV" shown for a file saved already').toBe(0);
    // Said back: which file, with as many rows as it holds (the header apart), not a form emptied without a word.
    const rows = csvRecords(csv).length;
    await dialog()
      .getByRole('status')
      .filter({ hasText: new RegExp(`^Saved stacks-watch-Alice-\\d{4}-\\d{2}-\\d{2}\\.csv \\(${rows} rows\\)`) })
      .waitFor();
    await screenshot(page, 'history-export-saved-1366x900');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'history-export-saved-390x844');
    await page.setViewportSize(DESKTOP);
    await dialog().getByRole('button', { name: 'Close' }).click();
  });

  it('goes on after a Cancel: Export pressed again reads the rest and saves the file by itself', async () => {
    const carol = chain().accounts.people[2]!.address;
    await openExport(page, 'Carol');
    // The node holds each answer a minute: the export is still reading its first page when the user cancels it.
    await control(harness.devnet, '/devnet/faults', { latencyMs: 60_000 });
    try {
      await dialog().getByRole('button', { name: 'Export', exact: true }).click();
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      await dialog()
        .getByText(/^Export cancelled: no file was made\./)
        .waitFor();
    } finally {
      await control(harness.devnet, '/devnet/faults', { latencyMs: 0 });
    }
    const csv = await exportAndSave(page);
    // Carol is paid by Alice in a third of them (one of those a token transfer that failed).
    expectLedger(harness.devnet, csv, carol, TRANSACTIONS / 3);
    expect(await dialog().getByRole('button', { name: 'Save the CSV' }).count()).toBe(0);
    await dialog()
      .getByRole('status')
      .filter({ hasText: /^Saved stacks-watch-Carol-\d{4}-\d{2}-\d{2}\.csv/ })
      .waitFor();
    await dialog().getByRole('button', { name: 'Close' }).click();
  });

  it('refuses a date range backwards, saying which dates and what to do', async () => {
    await page.setViewportSize(PHONE);
    await openExport(page, 'Alice');
    await dialog().getByLabel('From', { exact: true }).fill('2026-03-02');
    await dialog().getByLabel('To', { exact: true }).fill('2026-03-01');
    await dialog().getByRole('button', { name: 'Export', exact: true }).click();
    await page.getByText('The start date (Mar 2, 2026) is after the end date (Mar 1, 2026): swap them.').waitFor();
    await screenshot(page, 'history-export-dialog-390x844');
    await dialog().getByRole('button', { name: 'Close' }).click();
  });
});
