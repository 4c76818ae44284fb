import { c32address } from 'c32check';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../tests/e2e/support/chromium.ts';

export interface LargeListFigures {
  readonly entries: number;
  /** Navigation start to all rows in the DOM, on a reload with the list in IndexedDB. */
  readonly reloadToListMs: number;
  /** Click on the add sheet's "Watch" to the new row painted (next animation frame), median of the runs. */
  readonly addMedianMs: number;
  /** Click on "Move up" in a row's menu to the row moved and painted, median of the runs. */
  readonly moveMedianMs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Drives the built app in Chromium with a list of `count` addresses, timing what a user feels over `runs` runs. */
export async function measureLargeWatchlist(url: string, count: number, runs: number): Promise<LargeListFigures> {
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(url);
    const addresses = Array.from({ length: count }, (_, n) =>
      c32address(n % 2 ? 22 : 26, `f${n.toString(16).padStart(39, '0')}`),
    );
    // Import lives in Settings; the list is on the home screen.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Import…').setInputFiles({
      name: 'many.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(addresses)),
    });
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('ul.watch-rows > li').length === n, count);
    await page.waitForTimeout(300);

    await page.reload();
    await page.waitForFunction((n) => document.querySelectorAll('ul.watch-rows > li').length === n, count);
    const reloadToListMs = await page.evaluate(() => performance.now());

    const adds: number[] = [];
    const moves: number[] = [];
    for (let run = 0; run < runs; run++) {
      // Adding is a sheet; the click timed is its "Watch".
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(c32address(22, `e${run.toString(16).padStart(39, '0')}`));
      adds.push(await timeClick(page, 'dialog.sheet button[type=submit]', count + run + 1));
      // Moving is in the row's menu; the click timed is its "Move up" (of the last row: a new entry goes on top).
      const row = 'ul.watch-rows > li:last-child';
      // Its menu may still be open from an earlier run (the rows swap places, each keeping its own menu).
      const menu = page.locator(`${row} button[aria-label^="Actions for"]`);
      if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
      moves.push(await timeClick(page, `${row} button[aria-label^="Move"][aria-label$="up"]`, count + run + 1));
    }
    return {
      entries: count,
      reloadToListMs: Math.round(reloadToListMs),
      addMedianMs: median(adds),
      moveMedianMs: median(moves),
    };
  } finally {
    await browser.close();
  }
}

/** Clicks in the page and resolves when the list has `rowsAfter` rows and the frame after is painted. */
async function timeClick(page: Page, selector: string, rowsAfter: number): Promise<number> {
  // A string, not a function: the TypeScript loader would add helpers that do not exist in the page.
  const script = `new Promise((resolve, reject) => {
    const button = document.querySelector(${JSON.stringify(selector)});
    if (!button) return reject(new Error('nothing matches the selector'));
    const start = performance.now();
    button.click();
    (function check() {
      if (document.querySelectorAll('ul.watch-rows > li').length !== ${rowsAfter}) return requestAnimationFrame(check);
      requestAnimationFrame(() => setTimeout(() => resolve(Math.round((performance.now() - start) * 10) / 10), 0));
    })();
  })`;
  return (await page.evaluate(script)) as number;
}
