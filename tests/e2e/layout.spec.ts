import { c32address } from 'c32check';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, waitForServiceWorkerControl } from './support/app-page.ts';
import { alertLog, control } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, screenshot } from './support/layout.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SIZES = [
  { width: 320, height: 640, phone: true },
  { width: 390, height: 844, phone: true },
  { width: 1280, height: 800, phone: false },
  { width: 1366, height: 900, phone: false },
] as const;
/** Mainnet addresses nobody follows here (tests reach no public node): the long list of a heavy user. */
const MANY = Array.from({ length: 200 }, (_, n) => c32address(22, `b${n.toString(16).padStart(39, '0')}`));

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;

/** Each main screen: how to reach it, and what says it is ready. */
const SCREENS: readonly { name: string; open: (page: Page) => Promise<void> }[] = [
  // The search and network filter arrive in a chunk of their own, after the rows.
  { name: 'home', open: (page) => goTo(page, '/', '.list-filters') },
  {
    name: 'add-sheet',
    open: async (page) => {
      await goTo(page, '/', '.watch-row');
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(MANY[0]!.match(/.{1,4}/g)!.join(' '));
      await page.getByText('Mainnet · single-sig').waitFor();
    },
  },
  { name: 'address', open: (page) => goTo(page, `/address/${alice()}`, '.balance-chart svg') },
  { name: 'inbox', open: (page) => goTo(page, '/inbox', '.inbox-entry') },
  { name: 'settings', open: (page) => goTo(page, '/settings', '.node-settings') },
  { name: 'privacy', open: (page) => goTo(page, '/privacy', '.host-card') },
];

const alice = () => harness.devnet.node.chain.accounts.people[0]!.address;

async function goTo(page: Page, path: string, ready: string): Promise<void> {
  if (new URL(page.url()).pathname !== path) await page.goto(`${harness.server.url}${path}`);
  await page
    .locator(ready)
    .first()
    .waitFor()
    .catch(async (error: unknown) => {
      // What the screen showed instead, so that a failure under load says which state it was stuck in.
      const shown = await page
        .locator('main')
        .innerText({ timeout: 5_000 })
        .catch(() => '(unreadable)');
      throw new Error(`${path} never showed ${ready}; the screen said:\n${shown.slice(0, 1500)}`, { cause: error });
    });
}

describe('every screen at phone and desktop sizes, light and dark', () => {
  it('sets up a heavy user: the demo accounts, 200 mainnet addresses, and a burst of alerts as one toast (screenshots)', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Import…').setInputFiles({
      name: 'many.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(MANY)),
    });
    await page.getByText('Imported 200 addresses.').waitFor();
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    const watched = 200 + harness.devnet.node.chain.accounts.all.length;
    await expect.poll(() => page.locator('.watch-row').count()).toBe(watched);
    await page.locator('.connection-indicator').waitFor();

    const bob = harness.devnet.node.chain.accounts.people[1]!.address;
    for (const amount of ['84000000', '2000000', '3000000'])
      await control(harness.devnet, '/devnet/transfer', { sender: bob, recipient: alice(), amount });
    await control(harness.devnet, '/devnet/mine');
    // Headless Chromium does not always report the window as focused to the service worker (then the alerts land
    // only in the inbox): they are handed to the page as the service worker hands a toast, in the engine's words.
    await expect.poll(async () => (await alertLog(page)).length).toBeGreaterThanOrEqual(6);
    const alerts = await alertLog(page);
    await page.evaluate(
      (contents) => {
        for (const content of contents)
          navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'TOAST', content } }));
      },
      alerts.map((alert) => ({
        title: alert.title,
        body: alert.body,
        tag: alert.id,
        renotify: false,
        data: { ids: [alert.id], path: alert.path, summary: null },
      })),
    );
    const toast = page.locator('.toast');
    // However many arrive (the service worker may hand the same burst over too), they make one toast: the newest in
    // its words, the others as "+N more". Pointed at, the toast stays while it is measured and followed (it fades 8 s
    // after the last alert otherwise).
    await toast.hover();
    const more = toast.getByRole('link', { name: /^\+\d+ more$/ });
    // The two sides of a transfer between watched addresses are one transaction, counted once (told as a pair).
    const transactions = new Set(alerts.map((alert) => alert.id.split(':')[2])).size;
    expect(Number((await more.textContent())!.match(/\d+/)![0])).toBeGreaterThanOrEqual(transactions - 1);
    expect(await toast.locator('strong').textContent()).toMatch(/STX/);
    expect(await toast.count()).toBe(1);
    // At a phone's width and a desktop's: inside the window, below the first entry, every word and the count shown.
    for (const size of [
      { width: 390, height: 844 },
      { width: 1366, height: 900 },
    ]) {
      await page.setViewportSize(size);
      await toast.hover();
      const [box, firstRow, moreBox, clipped] = await Promise.all([
        toast.boundingBox(),
        page.locator('.watch-row').first().boundingBox(),
        more.boundingBox(),
        toast.evaluate(
          (node) =>
            [...node.querySelectorAll('strong, .toast-body, .toast-more')].filter(
              (part) => part.scrollWidth > part.clientWidth || part.scrollHeight > part.clientHeight,
            ).length,
        ),
      ]);
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
      expect(box!.y + box!.height).toBeLessThanOrEqual(size.height);
      expect(box!.y).toBeGreaterThan(firstRow!.y + firstRow!.height);
      expect(moreBox!.height).toBeGreaterThanOrEqual(24);
      expect(clipped).toBe(0);
      // Its words and the live region's spoken line pass axe too.
      expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);
      await screenshot(page, `toast-${size.width}x${size.height}-light`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    // Where the burst's alerts are: the one page all of them are on (a transfer between watched addresses opens its
    // recipient's), else the inbox, marked where the burst began once the inbox holds its alerts.
    const where = (await more.getAttribute('href'))!;
    expect(where).toMatch(/^\/(inbox(\?since=\d+)?|address\/\w+)$/);
    await more.click();
    // The mark can arrive between the read and the tap (the inbox stores the burst's last alert): the page is the test.
    await page.waitForURL((url) => url.pathname === where.split('?')[0]);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`fits, reads and passes axe in ${scheme}`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      const problems: string[] = [];
      for (const size of SIZES) {
        await page.setViewportSize(size);
        for (const screen of SCREENS) {
          await screen.open(page);
          const report = await layoutReport(page);
          const where = `${screen.name} at ${size.width}×${size.height} ${scheme}`;
          if (report.overflow > 0) problems.push(`${where}: scrolls ${report.overflow} px sideways`);
          if (report.headerHeight > 64) problems.push(`${where}: the header is ${report.headerHeight} px tall`);
          problems.push(...report.badControls.map((control) => `${where}: ${control}`));
          if (screen.name === 'home' && size.phone) {
            const row = await page.locator('.watch-row').first().boundingBox();
            if (!row || row.y + row.height > size.height) problems.push(`${where}: the first entry is below the fold`);
          }
          if (screen.name === 'address') {
            // What happened comes before the facts on a phone; beside them on a wide screen.
            const [activity, facts] = await Promise.all(
              ['.activity-card', '.address-facts'].map((card) => page.locator(card).boundingBox()),
            );
            if (size.phone && activity!.y > facts!.y) problems.push(`${where}: the facts come before the activity`);
            // A wide screen keeps the list beside the address, the open one marked; a phone shows the page alone.
            const nav = page.getByRole('navigation', { name: 'Watch list' });
            const wide = size.width >= 1200;
            if ((await nav.count()) !== (wide ? 1 : 0))
              problems.push(`${where}: the watch list ${wide ? 'is not' : 'is'} beside the address page`);
            if (wide && (await nav.locator('[aria-current="page"] .watch-nav-name').textContent()) !== 'Alice')
              problems.push(`${where}: the list beside it does not mark Alice as open`);
          }
          await screenshot(page, `${screen.name}-${size.width}x${size.height}-${scheme}`);
          // Below the fold too, where the page is not hundreds of rows long.
          if (screen.name === 'address' || screen.name === 'settings')
            await screenshot(page, `${screen.name}-${size.width}x${size.height}-${scheme}-full`, { fullPage: true });
          if (size.width === 390 || size.width === 1280) {
            const violations = await axeViolations(page, AXE_SOURCE);
            problems.push(...violations.map((violation) => `${where}: axe ${violation.id} at ${violation.nodes[0]}`));
          }
          if (screen.name === 'add-sheet') await page.keyboard.press('Escape');
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it('offers to install where the browser does: the header’s button on a wide screen, a card in Settings on a phone', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await goTo(page, '/settings', '.node-settings');
    // Chromium fires this when the app is installable and not installed; headless never does, so the test does.
    const offer = () =>
      page.evaluate(() => {
        const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & Record<string, unknown>;
        event['prompt'] = async () => void ((window as unknown as Record<string, number>)['prompted'] = 1);
        event['userChoice'] = Promise.resolve({ outcome: 'accepted' });
        window.dispatchEvent(event);
      });
    await offer();
    const card = page.locator('.install-card');
    const headerButton = page.locator('.app-header').getByRole('button', { name: 'Install' });
    await page.setViewportSize({ width: 390, height: 844 });
    await card.getByRole('heading', { name: 'Install Stacks Watch' }).waitFor();
    expect(await headerButton.isVisible()).toBe(false);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'install-card-390x844-light');
    await page.setViewportSize({ width: 1366, height: 900 });
    expect(await card.isVisible()).toBe(false);
    expect(await headerButton.isVisible()).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    await card.getByRole('button', { name: 'Install' }).click();
    expect(await page.evaluate(() => (window as unknown as Record<string, number>)['prompted'])).toBe(1);
    // The offer is used up: no card and no button until the browser offers again.
    await card.waitFor({ state: 'detached' });
    expect(await headerButton.count()).toBe(0);
  });
});
