import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningDevnet } from '../../../mocks/devnet/server.ts';
import { baseUnits, csvRecords } from '../../support/csv-read.ts';
import { ledgerHistory } from '../../support/ledger-history.ts';

/** The CSV export's browser files (tests/e2e/history-export.spec.ts, the soak's gateway run): one page, one devnet. */
export interface ExportScene {
  readonly page: Page;
  readonly devnet: RunningDevnet;
}

export const exportDialog = (page: Page) => page.getByRole('dialog', { name: /^Export .* as CSV$/ });
export const watchRow = (page: Page, name: string) =>
  page.locator('.watch-row').filter({ has: page.getByText(name, { exact: true }) });

/**
 * `count` mined transactions of person `subject`: STX in from one person, STX out to another, a token in, one token
 * transfer it sends that fails (more than it holds): every kind a tax file tells apart. Ten a block.
 */
export async function busy(devnet: RunningDevnet, subject: number, count: number): Promise<void> {
  const chain = devnet.node.chain;
  const people = chain.accounts.people;
  const me = people[subject]!.address;
  const [other, third] = people.filter((_, index) => index !== subject).map((person) => person.address);
  const token = chain.assets.tokens[0]!;
  for (let n = 0; n < count; n++) {
    const kind = n === 7 ? 'fail' : n % 3;
    if (kind === 'fail') {
      const tooMuch = chain.state.ftBalance(me, token.assetIdentifier) + 1n;
      await chain.submit(me, { kind: 'ft', token, recipient: third!, amount: tooMuch, memo: 'too much' });
    } else if (kind === 0)
      await chain.submit(other!, {
        kind: 'stx',
        recipient: me,
        amount: BigInt(1_000_000 + n * 1_001),
        memo: `in ${n}`,
      });
    else if (kind === 1)
      await chain.submit(me, { kind: 'stx', recipient: third!, amount: BigInt(250_000 + n * 7), memo: `out ${n}` });
    else
      await chain.submit(other!, {
        kind: 'ft',
        token,
        recipient: me,
        amount: BigInt(10 ** token.decimals + n),
        memo: '',
      });
    if (n % 10 === 9) chain.mine();
  }
  while (chain.pending().length > 0) chain.mine();
}

/** Presses the dialog's Export, as the user does, and reads the file the browser saved once the history was read. */
export async function exportAndSave(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 240_000 }),
    exportDialog(page).getByRole('button', { name: 'Export', exact: true }).click(),
  ]);
  expect(await download.failure()).toBeNull();
  return readFileSync((await download.path())!, 'utf8');
}

/** Presses "Save the CSV" (an export made before a reload, or one that lacks pages) and reads the file saved. */
export async function saveCsv(page: Page): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 240_000 }),
    page.getByRole('button', { name: 'Save the CSV' }).click({ timeout: 240_000 }),
  ]);
  return readFileSync((await download.path())!, 'utf8');
}

/** The file against the devnet's ledger: every transaction of the address once, each amount and fee exactly. */
export function expectLedger(devnet: RunningDevnet, csv: string, principal: string, atLeast: number): void {
  const chain = devnet.node.chain;
  const records = csvRecords(csv);
  const token = chain.assets.tokens[0]!;
  const truth = ledgerHistory(chain, principal).filter((tx) => tx.net.size > 0 || tx.fee > 0n);
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
    if (net === 0n) {
      // A fee paid for nothing else: Koinly's withdrawal of the fee, labelled "cost", its Fee column empty.
      expect([record['Sent Currency'], record['Label'], record['Received Amount'], record['Fee Amount']]).toEqual([
        'STX',
        'cost',
        '',
        '',
      ]);
      expect(baseUnits(record['Sent Amount']!, 6), tx.txId).toBe(tx.fee);
    } else expect(record['Fee Amount'] === '' ? 0n : baseUnits(record['Fee Amount']!, 6), tx.txId).toBe(tx.fee);
  }
}

/** From the list, the address's page, its export dialog. */
export async function openExport(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: 'Stacks Watch' }).click();
  await watchRow(page, name).getByRole('link').click();
  await page.getByRole('button', { name: 'Export CSV…' }).click();
}
