/**
 * A screen seen from its top stays put when an alert toast arrives: its heading and first controls where the user saw
 * them (a new user's walk at 1366 px found the watch list jumping down at every load, the heading and "Add address"
 * half under the header, as the first toast came). Only a reader scrolled down to the end has the page moved for the
 * stack (update-bar-room.spec.ts). The oracle is the browser's hit test: what lies at the middle of the heading and of
 * the button is the element itself.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { showToast, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let page: Page;

/** Whether the element is on screen and uncovered at its middle (not under the sticky header nor the stack). */
const inSight = (selector: string) =>
  page.evaluate((target) => {
    const element = document.querySelector<HTMLElement>(target)!;
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return box.top >= 0 && element.contains(hit);
  }, selector);

describe('an alert toast over a screen seen from its top', () => {
  for (const size of [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ])
    it(`leaves the watch list's heading and Add button where they were, at ${size.width} px`, async () => {
      page ??= await harness.browser.context.newPage();
      await page.setViewportSize(size);
      if (page.url() !== `${harness.server.url}/`) {
        await page.goto(harness.server.url);
        await waitForServiceWorkerControl(page);
        await page.getByRole('button', { name: 'Add the demo accounts' }).click();
        await waitForLive(page);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
      expect(await inSight('#watchlist-heading')).toBe(true);
      await showToast(page);
      await page.locator('.toast').waitFor();
      // The stack measured with the toast in it: the page has taken its room (and, were it to move, has moved).
      await expect
        .poll(() =>
          page.evaluate(() => parseFloat(document.documentElement.style.getPropertyValue('--bottom-stack-room'))),
        )
        .toBeGreaterThan(0);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await inSight('#watchlist-heading')).toBe(true);
      expect(await inSight('.watchlist-head .add-button')).toBe(true);
      await screenshot(page, `toast-keeps-top-${size.width}x${size.height}`);
      await page.evaluate(() => document.querySelector<HTMLButtonElement>('.toast button')!.click());
      await page.locator('.toast').waitFor({ state: 'detached' });
    });
});
