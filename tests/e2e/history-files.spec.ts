import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { csvRecords } from '../support/csv-read.ts';
import { ledgerHistory } from '../support/ledger-history.ts';
import { waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { busy, expectLedger, exportDialog, watchRow } from './support/history-export.ts';
import { layoutReport, screenshotsEverywhere } from './support/layout.ts';

/*
 * The whole list's CSV from Settings, as a tax tool imports it: one file per address (a transfer between two watched
 * addresses is a send in one file and a receive in the other, never both in one), each marked as UTF-8 so that a
 * spreadsheet shows “ ” and ☕, fee-only rows as Koinly documents them (a withdrawal of the fee labelled "cost"), and,
 * on request, every address in one file with a Wallet column. Each file is read back by the tests' own CSV reader
 * (not the app's writer) and every row checked against the devnet's ledger.
 */
const TRANSACTIONS = 24;
const MEMO = 'coffee “fika” ☕';

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
const chain = () => harness.devnet.node.chain;
const dialog = () => exportDialog(page);
/** Alice's failed transaction and its row's Description in her file. */
let failedRow: { txId: string; description: string };

/** Presses a button that saves a file and gives the file's bytes. */
async function saved(button: string): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    dialog().getByRole('button', { name: button }).click(),
  ]);
  return readFileSync((await download.path())!);
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Settings → "Export CSV…" of the whole list. */
async function openExportDialog(): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).click();
  await page
    .getByRole('region', { name: 'Transaction history (CSV)' })
    .getByRole('button', { name: 'Export CSV…' })
    .click();
}

describe('the whole list as CSV files', () => {
  it(`sets up: the demo accounts watched, ${TRANSACTIONS} transactions of Alice with Bob and Carol, a memo “ ” ☕`, async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await busy(harness.devnet, 0, TRANSACTIONS);
    const [alice, bob] = chain().accounts.people;
    await chain().submit(bob!.address, { kind: 'stx', recipient: alice!.address, amount: 4_200_000n, memo: MEMO });
    // More than the token's whole supply: it fails, and Alice pays its fee for nothing else.
    const token = chain().assets.tokens[0]!;
    await chain().submit(alice!.address, { kind: 'ft', token, recipient: bob!.address, amount: 10n ** 30n, memo: 'x' });
    while (chain().pending().length > 0) chain().mine();
  });

  it('gives one file per address by default, each marked UTF-8, every row equal to the ledger', async () => {
    const [alice, bob, carol] = chain().accounts.people;
    const watched = chain().accounts.all;
    await openExportDialog();
    await dialog().getByRole('button', { name: 'Export', exact: true }).click();
    await dialog()
      .getByRole('button', { name: /^Save Alice \(\d+ rows?\)$/ })
      .waitFor({ timeout: 120_000 });
    expect(
      await dialog()
        .getByRole('button', { name: /^Save .* \(\d+ rows?\)$/ })
        .count(),
    ).toBe(watched.length);
    await screenshotsEverywhere(page, 'history-files-ready', {
      show: dialog().getByRole('button', { name: 'Done' }),
      check: async ({ size }) => {
        expect((await layoutReport(page)).overflow).toBe(0);
        // Nor does the dialog itself scroll sideways: a button naming a long label wraps its words.
        const sideways = await dialog().evaluate((element) => element.scrollWidth - element.clientWidth);
        expect(sideways, `the dialog scrolls ${sideways} px sideways at ${size.width} px`).toBeLessThanOrEqual(0);
      },
    });

    const files = new Map<string, Record<string, string>[]>();
    for (const [name, person] of [
      ['Alice', alice!],
      ['Bob', bob!],
      ['Carol', carol!],
    ] as const) {
      const bytes = await saved(`Save ${name} (`);
      expect(bytes.subarray(0, 3).equals(BOM), `${name}'s file starts with UTF-8's byte-order mark`).toBe(true);
      const text = bytes.toString('utf8');
      expectLedger(harness.devnet, text, person.address, name === 'Alice' ? TRANSACTIONS : 1);
      files.set(person.address, csvRecords(text));
    }
    // A transfer between two watched addresses: a send in one file, a receive in the other, once in each.
    const between = ledgerHistory(chain(), alice!.address)
      .map((tx) => tx.txId)
      .filter((txId) => ledgerHistory(chain(), bob!.address).some((tx) => tx.txId === txId));
    expect(between.length).toBeGreaterThan(0);
    for (const txId of between) {
      const inAlice = files.get(alice!.address)!.filter((record) => record['TxHash'] === txId);
      const inBob = files.get(bob!.address)!.filter((record) => record['TxHash'] === txId);
      expect([inAlice.length, inBob.length], txId).toEqual([1, 1]);
    }
    // The memo reads as it was written, curly quotes and cup included.
    const withMemo = files.get(alice!.address)!.find((record) => record['Description']!.includes('coffee'));
    expect(withMemo?.['Description']).toContain(`memo “${MEMO}”`);
    // A failed transaction Alice paid for: Koinly's fee-only row.
    const failed = ledgerHistory(chain(), alice!.address).find((tx) => !tx.success && tx.fee > 0n)!;
    const failedRecord = files.get(alice!.address)!.find((record) => record['TxHash'] === failed.txId)!;
    expect(failedRecord).toMatchObject({
      'Sent Currency': 'STX',
      'Received Amount': '',
      'Fee Amount': '',
      Label: 'cost',
    });
    failedRow = { txId: failed.txId, description: failedRecord['Description']! };
  });

  it('gives every address in one file with a Wallet column on request, and without the mark when unticked', async () => {
    await dialog()
      .getByLabel(/Mark the file as UTF-8/)
      .uncheck();
    const bytes = await saved('Save one file with a Wallet column');
    expect(bytes.subarray(0, 3).equals(BOM)).toBe(false);
    const records = csvRecords(bytes.toString('utf8'));
    const watched = new Set(chain().accounts.all.map((account) => account.address));
    expect(records.every((record) => watched.has(record['Wallet']!))).toBe(true);
    // Each wallet's rows are exactly its transactions in the ledger.
    for (const principal of new Set(records.map((record) => record['Wallet']!))) {
      const ids = records.filter((record) => record['Wallet'] === principal).map((record) => record['TxHash']!);
      const truth = ledgerHistory(chain(), principal)
        .filter((tx) => tx.net.size > 0 || tx.fee > 0n)
        .map((tx) => tx.txId);
      expect(new Set(ids), principal).toEqual(new Set(truth));
    }
    await dialog().getByRole('button', { name: 'Done' }).click();
    await dialog().getByRole('button', { name: 'Export', exact: true }).waitFor();
  });

  it('says a file made but not saved is the earlier export, with its dates, after a reload, and lets it go', async () => {
    await dialog().getByRole('button', { name: 'Export', exact: true }).click();
    await dialog().getByRole('button', { name: 'Save one file with a Wallet column' }).waitFor({ timeout: 120_000 });
    // Closed without saving, the app reloaded: the file is made again from what was read, and said to be that one.
    await page.reload();
    await waitForLive(page);
    await openExportDialog();
    const earlier = dialog().getByText('The export you started earlier (all of the history) is ready, not saved yet.');
    await earlier.waitFor({ timeout: 120_000 });
    expect(await dialog().getByText('Resumed where it stopped.').count()).toBe(0);
    await screenshotsEverywhere(page, 'history-export-earlier', {
      show: earlier,
      check: async () => expect((await layoutReport(page)).overflow).toBe(0),
    });
    await dialog().getByRole('button', { name: 'Discard it and choose new dates' }).click();
    await dialog().getByRole('button', { name: 'Export', exact: true }).waitFor();
    await dialog().getByLabel('From').waitFor();
    // Forgotten: opened again after another reload, the dialog asks for dates.
    await page.reload();
    await waitForLive(page);
    await openExportDialog();
    await dialog().getByRole('button', { name: 'Export', exact: true }).waitFor();
    expect(await earlier.count()).toBe(0);
  });

  it('describes a failed transaction in the words its detail on the screen gives, not the node’s status code', async () => {
    await dialog().getByRole('button', { name: 'Close' }).click();
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await watchRow(page, 'Alice').getByRole('link').click();
    const row = page.locator(`.activity-row[data-tx="${failedRow.txId}"]`);
    await row.getByRole('button').first().click();
    const status = row.locator('.tx-detail dt', { hasText: /^Status$/ }).locator('xpath=following-sibling::dd[1]');
    const words = (await status.textContent())!;
    expect(words).toMatch(/^Failed — /);
    expect(failedRow.description).toBe(`Alice: ${words}`);
    expect(failedRow.description).not.toMatch(/abort_by|dropped_|problematic_/);
  });
});
