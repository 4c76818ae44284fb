/**
 * Storage that fails in Chromium: a full quota and IndexedDB refused. Each
 * gives a clear message, and nothing the user can keep is lost: the list stays on screen and downloads as a file.
 */
import { readFileSync } from 'node:fs';
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { serveBuiltAppForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

const FIRST = c32address(22, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const SECOND = c32address(26, '1111111111111111111111111111111111111111');

const app = serveBuiltAppForFile();

describe('storage faults', () => {
  it('a full quota: the change stays on screen, the message says why, and the list downloads', async () => {
    const page = await app.browser.context.newPage();
    await page.goto(app.server.url);
    await waitForServiceWorkerControl(page);
    const add = async (address: string, label: string) => {
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(address);
      await page.getByLabel('Label').fill(label);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.getByRole('listitem').filter({ hasText: label }).waitFor();
    };
    await add(FIRST, 'Kept');

    // CDP Storage.overrideQuotaForOrigin is accepted but has no effect in this Chromium (156, headless): the quota
    // stays at ~10 GB. So the page's IndexedDB raises what a full quota raises, the QuotaExceededError DOMException.
    await page.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      (window as unknown as { restorePut: () => void }).restorePut = () => (IDBObjectStore.prototype.put = put);
      IDBObjectStore.prototype.put = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    try {
      await add(SECOND, 'Not stored');
      const alert = page.locator('.save-error');
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        'Changes could not be saved on this device: this device has no storage space left for the app.',
      );
      for (const [width, height] of [
        [390, 844],
        [1280, 800],
      ] as const) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `storage-full-${width}x${height}`);
      }
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        alert.getByRole('button', { name: 'Download the watch list' }).click(),
      ]);
      const file = readFileSync((await download.path())!, 'utf8');
      expect(file).toContain(FIRST);
      expect(file).toContain(SECOND);
      expect(file).toContain('Not stored');
    } finally {
      await page.evaluate(() => (window as unknown as { restorePut: () => void }).restorePut());
    }
    await page.close();
  });

  it('IndexedDB refused: a clear message instead of a blank or broken screen', async () => {
    const page = await app.browser.context.newPage();
    await page.addInitScript(() => {
      IDBFactory.prototype.open = () => {
        throw new DOMException('The user denied permission to access the database.', 'SecurityError');
      };
    });
    await page.goto(app.server.url);
    const alert = page.getByRole('alert').filter({ hasText: 'could not be opened' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'Your watch list could not be opened on this device: the browser does not let the app store anything here',
    );
    await page.close();
  });
});
