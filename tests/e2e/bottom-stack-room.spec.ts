/**
 * What floats at the bottom (the update bar, an alert toast, the Undo) never hides what a user needs: scrolled to the
 * end, every link, button and field of the screen is clear of the stack, on two phones and a laptop, on the watch
 * list and on an address page.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { showToast, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { LOOK_SIZES, screenshot } from './support/layout.ts';

const BUILT_SW = readFileSync(new URL('../../dist/sw.js', import.meta.url), 'utf8');
const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let page: Page;

/**
 * Scrolled as far down as the page goes: each link, button or field of the screen that the stack covers, and how
 * (none is the answer wanted).
 */
const coveredAtTheEnd = () =>
  page.evaluate(() => {
    window.scrollTo(0, document.documentElement.scrollHeight);
    const stack = document.querySelector('.bottom-stack')!.getBoundingClientRect();
    const actionable = document.querySelectorAll<HTMLElement>(
      'main a[href], main button, main input, main select, main textarea, main summary',
    );
    const covered: string[] = [];
    for (const element of actionable) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || element.closest('[hidden], .visually-hidden')) continue;
      const overlaps =
        box.bottom > stack.top + 0.5 &&
        box.top < stack.bottom - 0.5 &&
        box.right > stack.left + 0.5 &&
        box.left < stack.right - 0.5;
      const name =
        element.getAttribute('aria-label') ??
        (element as HTMLInputElement).labels?.[0]?.textContent?.trim() ??
        element.textContent?.trim().slice(0, 40);
      if (overlaps)
        covered.push(
          `${element.tagName.toLowerCase()} “${name}” ends at ${box.bottom}, the stack starts at ${stack.top}`,
        );
    }
    return covered;
  });

describe('the bottom stack and what is under it', () => {
  it('sets up: the demo accounts, an update waiting, an Undo held by its focus', async () => {
    page = await harness.browser.context.newPage();
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    harness.server.override('/sw.js', `${BUILT_SW}\n// a new release\n`);
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
    await page.locator('.update-prompt').getByText('A new version is ready.').waitFor();
    await page.getByRole('button', { name: 'Actions for Deployer' }).click();
    await page.getByRole('button', { name: 'Remove Deployer' }).click();
    // Focused, the Undo waits (its countdown stops): the stack stays as tall as it gets for the whole file.
    await page.locator('.undo-bar button').focus();
  });

  it('unfolds a row\u2019s actions clear of the stack, though the row sat just above it, at 320, 390 and 1366 px', async () => {
    const more = page.locator('.watch-row').last().locator('.row-more');
    for (const size of LOOK_SIZES) {
      await page.setViewportSize(size);
      await showToast(page);
      await page.locator('.toast').waitFor();
      // The last row's ⋯ just above the stack, where a user taps it after scrolling down to it.
      await page.evaluate(() => {
        window.scrollTo(0, 0);
        const stackTop = document.querySelector('.bottom-stack')!.getBoundingClientRect().top;
        const button = [...document.querySelectorAll('.watch-row .row-more')].at(-1)!.getBoundingClientRect();
        window.scrollBy(0, button.bottom - (stackTop - 4));
      });
      await more.click();
      const covered = () =>
        page.evaluate(() => {
          const stack = document.querySelector('.bottom-stack')!.getBoundingClientRect();
          return [...document.querySelectorAll<HTMLElement>('.row-actions button')]
            .filter((button) => button.getBoundingClientRect().bottom > stack.top + 0.5)
            .map(
              (button) =>
                `${button.textContent} ends at ${button.getBoundingClientRect().bottom}, the stack at ${stack.top}`,
            );
        });
      await expect.poll(covered, { message: `${size.width} px` }).toEqual([]);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await screenshot(page, `row-actions-above-stack-${size.width}x${size.height}-${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await more.click();
      await page.evaluate(() => document.querySelector<HTMLButtonElement>('.toast button')!.click());
      await page.locator('.toast').waitFor({ state: 'detached' });
      await page.locator('.undo-bar button').focus();
    }
  });

  for (const screen of ['watch list', 'address page'] as const)
    it(`leaves every link and button of the ${screen} clear of the stack at its end, at 320, 390 and 1366 px`, async () => {
      if (screen === 'address page') {
        await page.evaluate(() =>
          document.querySelector<HTMLAnchorElement>('.watch-row a[href^="/address/"]')!.click(),
        );
        await page.locator('.balance-card').waitFor();
      }
      for (const size of LOOK_SIZES) {
        await page.setViewportSize(size);
        await showToast(page);
        await page.locator('.toast').waitFor();
        expect(await page.locator('.bottom-stack > *:not(:empty):not(.visually-hidden)').count()).toBe(3);
        // Polled: a card that arrives late (the chart, the activity) moves the end.
        await expect.poll(coveredAtTheEnd, { message: `${size.width} px` }).toEqual([]);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await screenshot(page, `stack-end-${screen.replace(' ', '-')}-${size.width}x${size.height}-${scheme}`);
        }
        await page.emulateMedia({ colorScheme: 'light' });
        // Dismissed without taking the focus from the Undo.
        await page.evaluate(() => document.querySelector<HTMLButtonElement>('.toast button')!.click());
        await page.locator('.toast').waitFor({ state: 'detached' });
      }
      expect(await page.locator('.undo-bar').count()).toBe(1);
    });
});
