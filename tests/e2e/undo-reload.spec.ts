/**
 * The Undo after a removal outlives a reload: one right after Remove, before the list's save has committed (the
 * watch list is saved behind), and an ordinary one. The entry comes back once when undone, and never once its Undo
 * is over. The oracle for "before the save committed" is the stored record itself, held back by a transaction the
 * test keeps open on the watch list's database until the page goes.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshotsEverywhere } from './support/layout.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let page: Page;

const labels = () => page.locator('.watch-row .watch-label').allTextContents();
const undoBar = () => page.locator('.undo-bar');

/** The labels in the stored watch list record, read straight from IndexedDB. */
const storedLabels = (): Promise<string[]> =>
  page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('stacks-watch:watchlist');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction('records').objectStore('records').get('watchlist');
          request.onsuccess = () => {
            db.close();
            const record = request.result as { entries: { label: string }[] } | undefined;
            resolve(record?.entries.map((entry) => entry.label) ?? []);
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );

/**
 * Presses "Remove `label`" (its ⋯ already open) and reloads in the same task. With `holdSave`, a transaction the
 * page cannot finish holds the watch list's store first, so that the app's save is still waiting when the page goes.
 */
async function removeAndReload(label: string, options: { holdSave: boolean }): Promise<void> {
  await page
    .evaluate(
      ({ label, holdSave }) =>
        new Promise<void>((resolve, reject) => {
          const removeAndGo = () => {
            document.querySelector<HTMLButtonElement>(`button[aria-label="Remove ${label}"]`)!.click();
            location.reload();
            resolve();
          };
          if (!holdSave) return removeAndGo();
          const open = indexedDB.open('stacks-watch:watchlist');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const store = open.result.transaction('records', 'readwrite').objectStore('records');
            // Always one more request: the transaction never finishes while the page lives.
            const keepBusy = () => (store.get('watchlist').onsuccess = keepBusy);
            keepBusy();
            removeAndGo();
          };
        }),
      { label, ...options },
    )
    .catch((error: unknown) => {
      // The page reloads in the task that answers: on a busy machine Playwright may meet the navigation first.
      if (!String(error).includes('Execution context was destroyed')) throw error;
    });
}

describe('the Undo after a removal, across a reload', () => {
  it('sets up the demo accounts', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await page.locator('.watch-row').nth(6).waitFor();
    await expect.poll(storedLabels).toEqual(await labels());
  });

  it('is offered again after a reload before the removal was saved, and brings the entry back once', async () => {
    const before = await labels();
    expect(before).toContain('Bob');
    await page.getByRole('button', { name: 'Actions for Bob' }).click();
    await removeAndReload('Bob', { holdSave: true });
    await undoBar().getByText('Removed “Bob”.').waitFor();
    expect(await labels()).toEqual(before.filter((label) => label !== 'Bob'));
    await screenshotsEverywhere(page, 'undo-after-reload');
    await undoBar().getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Actions for Bob' }).waitFor();
    expect(await labels()).toEqual(before);
    await expect.poll(storedLabels).toEqual(before);
    await page.reload();
    await page
      .locator('.watch-row')
      .nth(before.length - 1)
      .waitFor();
    expect(await labels()).toEqual(before);
    expect(await undoBar().count()).toBe(0);
  });

  it('is offered again after an ordinary reload; once over, the entry stays removed', async () => {
    const before = await labels();
    await page.getByRole('button', { name: 'Actions for Carol' }).click();
    await removeAndReload('Carol', { holdSave: false });
    await undoBar().getByText('Removed “Carol”.').waitFor();
    const without = before.filter((label) => label !== 'Carol');
    expect(await labels()).toEqual(without);
    await expect.poll(storedLabels).toEqual(without);
    // Its ten seconds run out (the pointer is nowhere near it), and a reload does not bring Carol back.
    await undoBar().waitFor({ state: 'detached' });
    await page.reload();
    await page
      .locator('.watch-row')
      .nth(without.length - 1)
      .waitFor();
    expect(await labels()).toEqual(without);
    expect(await undoBar().count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('stacks-watch:removal-journal'))).toBeNull();
  });
});
