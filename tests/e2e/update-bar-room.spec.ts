/**
 * The update bar ("A new version is ready — Reload") arrives while the user reads the end of a screen: the page makes
 * room for it there and then, so that the screen's last control stays in sight and can be tapped, with no scrolling,
 * alone or on top of an alert toast and an Undo, at a phone's width and a laptop's. The oracle is the browser's own
 * hit test: what lies at the middle of the last control is the control itself.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { showToast, waitForLive } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

const BUILT_SW = readFileSync(new URL('../../dist/sw.js', import.meta.url), 'utf8');
const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let browser: TestBrowser | undefined;
afterAll(async () => browser?.close());
const SIZES = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;
let page: Page;
let release = 0;

/** A new version of the service worker on the server, found by the page: workbox-window tells it as waiting. */
async function publishRelease(): Promise<void> {
  harness.server.override('/sw.js', `${BUILT_SW}\n// release ${++release}\n`);
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
  await page.locator('.update-prompt').getByText('A new version is ready.').waitFor();
}

/** A click made by the page itself: the focus and the pointer stay where they are. */
const clickInPage = (selector: string) =>
  page.evaluate((target) => document.querySelector<HTMLElement>(target)!.click(), selector);

/** The user has read down to the end of the screen. */
const scrollToTheEnd = () => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

/**
 * The screen's last link, button or field, as a user sees it, and what the browser finds at its middle: the control
 * itself, or what covers it.
 */
const lastControl = () =>
  page.evaluate(() => {
    const controls = [
      ...document.querySelectorAll<HTMLElement>(
        'main a[href], main button, main input, main select, main textarea, main summary',
      ),
    ].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && !element.closest('[hidden], .visually-hidden');
    });
    const last = controls.at(-1)!;
    const box = last.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const name = (element: Element | null) =>
      element
        ? `${element.tagName.toLowerCase()} “${element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? ''}”`
        : 'nothing';
    const stackTop = document.querySelector('.bottom-stack')!.getBoundingClientRect().top;
    return {
      control: name(last),
      atItsMiddle: last.contains(hit) ? name(last) : name(hit),
      // Whole, not only its middle: its bottom edge above the stack's top and the screen's.
      whole: box.bottom <= Math.min(stackTop, window.innerHeight) + 0.5 && box.top >= 0,
    };
  });

/**
 * The app in a fresh browser profile, the demo accounts watched, the end of the list read. workbox-window tells a page
 * of one new version only (it stops listening after the first it sees), and the waiting one takes over only once the
 * old worker lets it: so each scenario has a profile of its own, where the release it publishes is the first news.
 */
async function openApp(): Promise<void> {
  await browser?.close();
  browser = await launchBrowser({ shell: true });
  page = await browser.context.newPage();
  await page.goto(harness.server.url);
  await waitForServiceWorkerControl(page);
  await page.getByRole('button', { name: 'Add the demo accounts' }).click();
  await waitForLive(page);
  // Every account listed with its balance (a row grows when its figures arrive): the end of the list stays put.
  const listed = () =>
    page.evaluate(() => {
      const rows = document.querySelectorAll('.watch-row').length;
      const counted = Number(document.querySelector('#watchlist-heading .count')?.textContent);
      return rows > 0 && rows === counted && rows === document.querySelectorAll('.watch-row .stx-available').length;
    });
  await expect.poll(listed).toBe(true);
}

/**
 * Three bars up: an Undo (Deployer removed) held by its focus, and an alert toast held by the pointer. The clicks are
 * the page's own, which move neither the focus nor the pointer: the pointer never passes over the Undo, and nothing
 * but the test's own steps takes either away.
 */
async function undoAndToastUp(): Promise<void> {
  await clickInPage('button[aria-label="Actions for Deployer"]');
  await clickInPage('button[aria-label="Remove Deployer"]');
  await page.locator('.undo-bar button').focus();
  await showToast(page);
  await page.locator('.toast').hover();
}

/** How many bars the bottom stack shows. */
const barsUp = () => page.locator('.bottom-stack > *:not(:empty):not(.visually-hidden)').count();

describe('the update bar makes room at the end of a screen', () => {
  for (const size of SIZES)
    it(`keeps the watch list's last control in sight when the bar arrives, alone, at ${size.width} px`, async () => {
      await openApp();
      await page.setViewportSize(size);
      await scrollToTheEnd();
      await publishRelease();
      const { control } = await lastControl();
      await expect
        .poll(lastControl, { message: `${size.width} px` })
        .toEqual({ control, atItsMiddle: control, whole: true });
      await screenshot(page, `update-bar-end-alone-${size.width}x${size.height}`);
    });

  for (const size of SIZES)
    it(`keeps it in sight when the bar arrives over a toast and an Undo, at ${size.width} px`, async () => {
      await openApp();
      await page.setViewportSize(size);
      await undoAndToastUp();
      await scrollToTheEnd();
      await publishRelease();
      expect(await barsUp()).toBe(3);
      const { control } = await lastControl();
      await expect
        .poll(lastControl, { message: `${size.width} px` })
        .toEqual({ control, atItsMiddle: control, whole: true });
      await screenshot(page, `update-bar-end-stacked-${size.width}x${size.height}`);
    });

  for (const size of SIZES)
    it(`keeps Settings' last button in sight when the bar arrives over a toast and an Undo, at ${size.width} px`, async () => {
      await openApp();
      await page.setViewportSize(size);
      await undoAndToastUp();
      await clickInPage('a[href="/settings"]');
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
      await page.locator('.undo-bar button').focus();
      await scrollToTheEnd();
      await publishRelease();
      expect(await barsUp()).toBe(3);
      const { control } = await lastControl();
      await expect
        .poll(lastControl, { message: `Settings at ${size.width} px` })
        .toEqual({ control, atItsMiddle: control, whole: true });
      await screenshot(page, `update-bar-end-settings-${size.width}x${size.height}`);
    });
});
