/**
 * Storage that fails in Chromium: a full quota, IndexedDB refused, a database upgrade held up by another tab (or
 * this tab holding up a newer one), a stored record that does not read, and site data cleared while the app runs.
 * Each gives a clear message, and nothing the user can keep is lost: the list stays on screen, is stored again
 * where it can be, and downloads as a file. What is stored afterwards is read back from the page.
 */
import { readFileSync } from 'node:fs';
import { c32address } from 'c32check';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { serveBuiltAppForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

const FIRST = c32address(22, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const SECOND = c32address(26, '1111111111111111111111111111111111111111');
const WATCHLIST_DB = 'stacks-watch:watchlist';

const app = serveBuiltAppForFile({ shell: true });

async function add(page: Page, address: string, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Add address' }).click();
  await page.getByLabel('Address').fill(address);
  await page.getByLabel('Label').fill(label);
  await page.getByRole('button', { name: 'Watch' }).click();
  await page.getByRole('listitem').filter({ hasText: label }).waitFor();
}

/** Every record of one of the app's databases, read by the page itself, and the database's version. */
function readDatabase(
  page: Page,
  database: string,
  store = 'records',
): Promise<{ version: number; records: Record<string, unknown> }> {
  return page.evaluate(
    ([database, store]) =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open(database);
        // Not there (cleared): created as the app creates it, so that reading leaves nothing the app trips on.
        request.onupgradeneeded = () => request.result.createObjectStore(store);
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const objects = db.transaction(store).objectStore(store);
          const keys = objects.getAllKeys();
          const values = objects.getAll();
          values.onsuccess = () => {
            db.close();
            const records = Object.fromEntries(keys.result.map((key, index) => [String(key), values.result[index]]));
            resolve({ version: db.version, records });
          };
        };
      }),
    [database, store] as const,
  );
}

/** Writes records into one of the app's databases from the page, as a damaged disk or another version would. */
function writeRecords(page: Page, database: string, store: string, records: Record<string, unknown>): Promise<void> {
  return page.evaluate(
    ([database, store, records]) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open(database);
        request.onupgradeneeded = () => request.result.createObjectStore(store);
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const transaction = db.transaction(store, 'readwrite');
          for (const [key, value] of Object.entries(records)) transaction.objectStore(store).put(value, key);
          transaction.oncomplete = () => {
            db.close();
            resolve();
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    [database, store, records] as const,
  );
}

/** What the browser's "clear site data" does, through the DevTools protocol. */
async function clearSiteData(page: Page, storageTypes: string): Promise<void> {
  const cdp = await app.browser.context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(app.server.url).origin, storageTypes });
  await cdp.detach();
}

/** A page of the app on an origin with nothing stored (each test below starts from there). */
async function freshPage(): Promise<Page> {
  const page = await app.browser.context.newPage();
  await clearSiteData(page, 'indexeddb');
  await page.goto(app.server.url);
  await page.getByRole('button', { name: 'Add address' }).waitFor();
  return page;
}

async function downloadText(page: Page, button: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return readFileSync((await download.path())!, 'utf8');
}

async function phoneScreenshot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, `${name}-390x844`);
}

describe('storage faults', () => {
  it('a full quota: the change stays on screen, the message says why, and the list downloads', async () => {
    const page = await app.browser.context.newPage();
    await page.goto(app.server.url);
    await waitForServiceWorkerControl(page);
    await add(page, FIRST, 'Kept');

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
      await add(page, SECOND, 'Not stored');
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

  describe('a database upgrade held up by another tab', () => {
    it('a tab of an older build keeps the database open: the newer tab says to close it, and opens the list after', async () => {
      const older = await freshPage();
      await add(older, FIRST, 'Kept');
      // The older build's idb-keyval connection: it never lets go when another tab asks to upgrade.
      await older.evaluate(
        (database) =>
          new Promise<void>((resolve, reject) => {
            const request = indexedDB.open(database);
            request.onsuccess = () => {
              (window as unknown as { held: IDBDatabase }).held = request.result;
              resolve();
            };
            request.onerror = () => reject(request.error);
          }),
        WATCHLIST_DB,
      );

      const newer = await app.browser.context.newPage();
      // The built app with its watch-list database one version up: what a schema change in a later build does.
      await newer.addInitScript((database) => {
        const open = IDBFactory.prototype.open;
        IDBFactory.prototype.open = function (name: string, version?: number) {
          return open.call(this, name, name === database && version !== undefined ? version + 1 : version);
        };
      }, WATCHLIST_DB);
      await newer.goto(app.server.url);
      const alert = newer.getByRole('alert').filter({ hasText: 'Close the other Stacks Watch tabs' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain(
        'Stacks Watch is open in another tab that still uses an older version of its storage',
      );
      await newer.getByText('Opening your watch list…').waitFor();
      await phoneScreenshot(newer, 'storage-blocked');

      await older.close();
      await newer.getByRole('listitem').filter({ hasText: 'Kept' }).waitFor();
      await alert.waitFor({ state: 'detached' });
      const stored = await readDatabase(newer, WATCHLIST_DB);
      expect(stored.version).toBe(2);
      expect(stored.records['watchlist']).toMatchObject({ entries: [{ principal: FIRST, label: 'Kept' }] });
      await newer.close();
    });

    it('a newer tab upgrades a database this tab holds: this tab lets go at once, says to reload, keeps the list', async () => {
      const page = await freshPage();
      await add(page, FIRST, 'Kept');

      const newer = await app.browser.context.newPage();
      await newer.goto(app.server.url);
      const upgrade = await newer.evaluate(
        (database) =>
          new Promise<string>((resolve, reject) => {
            const request = indexedDB.open(database, 2);
            request.onblocked = () => resolve('blocked');
            request.onerror = () => reject(request.error);
            request.onsuccess = () => {
              (window as unknown as { upgraded: IDBDatabase }).upgraded = request.result;
              resolve(`upgraded to ${request.result.version}`);
            };
          }),
        WATCHLIST_DB,
      );
      expect(upgrade).toBe('upgraded to 2');

      const alert = page.getByRole('alert').filter({ hasText: 'Stacks Watch was updated in another tab' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Reload this tab to go on with the new version');
      await page.getByRole('listitem').filter({ hasText: 'Kept' }).waitFor();
      await add(page, SECOND, 'Not stored');
      const saveError = page.locator('.save-error');
      await saveError.waitFor();
      expect(await saveError.textContent()).toContain(
        'Changes could not be saved on this device: a newer version of Stacks Watch, opened in another tab, has changed how it stores data; reload this tab to use it.',
      );
      await phoneScreenshot(page, 'storage-replaced');
      const file = await downloadText(page, 'Download the watch list');
      expect(file).toContain(FIRST);
      expect(file).toContain(SECOND);

      const stored = await newer.evaluate(
        () =>
          new Promise<unknown>((resolve) => {
            const db = (window as unknown as { upgraded: IDBDatabase }).upgraded;
            const request = db.transaction('records').objectStore('records').get('watchlist');
            request.onsuccess = () => resolve(request.result);
          }),
      );
      expect(stored).toMatchObject({ entries: [{ principal: FIRST, label: 'Kept' }] });
      await page.close();
      await newer.close();
    });
  });

  describe('a stored record that does not read', () => {
    it('a damaged watch list: what reads is shown, the record is kept as it was until the user chooses', async () => {
      const page = await freshPage();
      const damaged = {
        schemaVersion: 2,
        entries: [
          { principal: FIRST, network: 'mainnet', kind: 'single-sig', label: 'Kept', addedAt: 1 },
          { principal: 42, label: ['not', 'text'] },
          { principal: SECOND.slice(0, 12) },
        ],
      };
      await writeRecords(page, WATCHLIST_DB, 'records', { watchlist: damaged });
      await page.reload();

      const alert = page.getByRole('alert').filter({ hasText: 'stored watch list' });
      await alert.waitFor();
      const text = await alert.textContent();
      expect(text).toContain('2 entries of your stored watch list could not be read: the “principal” is missing');
      expect(text).toContain('The 1 address that could be read is shown below.');
      expect(text).toContain('The damaged record is kept on this device as it was');
      await page.getByRole('listitem').filter({ hasText: 'Kept' }).waitFor();
      await phoneScreenshot(page, 'storage-damaged-list');

      // A change meanwhile stays on screen; nothing is written over the damaged record.
      await add(page, SECOND, 'Added meanwhile');
      expect((await readDatabase(page, WATCHLIST_DB)).records['watchlist']).toEqual(damaged);
      const file = JSON.parse(await downloadText(page, 'Download the damaged record')) as {
        records: { record: string; place: string; value: unknown }[];
      };
      expect(file.records).toEqual([
        expect.objectContaining({ record: 'the watch list', place: `${WATCHLIST_DB}/watchlist`, value: damaged }),
      ]);

      await page.getByRole('button', { name: 'Save the list below' }).click();
      await page.getByRole('status').filter({ hasText: 'The damaged watch list was set aside' }).waitFor();
      await alert.waitFor({ state: 'detached' });
      const { records } = await readDatabase(page, WATCHLIST_DB);
      expect(records['watchlist']).toMatchObject({
        entries: [
          { principal: SECOND, label: 'Added meanwhile' },
          { principal: FIRST, label: 'Kept' },
        ],
      });
      const setAside = Object.keys(records).filter((key) => key.startsWith('watchlist:set-aside:'));
      expect(setAside.map((key) => records[key])).toEqual([damaged]);

      await page.reload();
      await page.getByRole('listitem').filter({ hasText: 'Added meanwhile' }).waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.close();
    });

    it('a truncated watch list, damaged settings and an inbox entry: each named, kept, defaults used meanwhile', async () => {
      const page = await freshPage();
      const truncated = '{"schemaVersion":2,"entries":[{"principal":"SP2J6';
      const alerts = { version: 1, whileOpen: 42, rules: { [`mainnet:${FIRST}`]: { muted: 'yes' } } };
      const entry = {
        id: 'mainnet:tx',
        network: 'mainnet',
        principal: FIRST,
        txId: null,
        phase: 'confirmed',
        title: 7,
        body: 'Received 1 STX',
        path: `/address/${FIRST}`,
        firstAt: 1,
        at: 1,
        read: false,
        deliveries: [],
        undelivered: false,
      };
      await writeRecords(page, WATCHLIST_DB, 'records', { watchlist: truncated });
      await writeRecords(page, 'stacks-watch:settings', 'records', { alerts });
      await writeRecords(page, 'stacks-watch:inbox', 'alerts', { 'mainnet:tx': entry });
      await page.reload();

      const list = page.getByRole('alert').filter({ hasText: 'stored watch list' });
      await list.waitFor();
      expect(await list.textContent()).toContain(
        'Your stored watch list is damaged (it is not a record) and none of it could be read.',
      );
      const others = page.getByRole('alert').filter({ hasText: 'Some data stored on this device could not be read' });
      await others.waitFor({ state: 'attached' });
      await others.filter({ hasText: 'inbox' }).waitFor();
      const text = await others.textContent();
      expect(text).toContain(
        'The alert settings: how alerts show while the app is open and the rules of SP2J6Z…9EJ7 could not be read; ' +
          'the defaults are used for it, and the stored record is kept as it was.',
      );
      expect(text).toContain('An alert in the inbox: its title is not text; it is left out of the inbox');
      await page.getByRole('button', { name: 'Start a new list' }).waitFor();
      await phoneScreenshot(page, 'storage-damaged-records');

      const file = JSON.parse(await downloadText(page, 'Download the damaged data')) as {
        records: { place: string; value: unknown }[];
      };
      expect(file.records.map(({ place, value }) => [place, value])).toEqual(
        expect.arrayContaining([
          ['stacks-watch:settings/alerts', alerts],
          ['stacks-watch:inbox/mainnet:tx', entry],
        ]),
      );
      expect((await readDatabase(page, WATCHLIST_DB)).records['watchlist']).toBe(truncated);
      expect((await readDatabase(page, 'stacks-watch:settings')).records['alerts']).toEqual(alerts);
      expect((await readDatabase(page, 'stacks-watch:inbox', 'alerts')).records['mainnet:tx']).toEqual(entry);
      await page.close();
    });
  });

  it('site data cleared while the app is open: it saves the list on screen again and says so once', async () => {
    const page = await freshPage();
    await add(page, FIRST, 'First');
    await add(page, SECOND, 'Second');
    // The network filter comes with a second network (loaded on demand): on screen before the data goes.
    await page.getByRole('group', { name: 'Show' }).waitFor();

    await clearSiteData(page, 'all');
    const alert = page.getByRole('alert').filter({ hasText: 'was deleted while the app was open' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'This tab has saved again what it still showed: your watch list (2 addresses), settings and alerts.',
    );
    await page.waitForFunction(async (database) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(database);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const objects = db.objectStoreNames.contains('records') && db.transaction('records').objectStore('records');
      const stored = objects
        ? await new Promise<{ entries?: unknown[] } | undefined>((resolve) => {
            const request = objects.get('watchlist');
            request.onsuccess = () => resolve(request.result);
          })
        : undefined;
      db.close();
      return stored?.entries?.length === 2;
    }, WATCHLIST_DB);
    expect(await alert.count()).toBe(1);
    await phoneScreenshot(page, 'storage-cleared');

    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'First' }).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Second' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.close();
  });
});
