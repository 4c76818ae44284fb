/**
 * A node that does not answer, as a user meets it on a phone and a desktop: its addresses' row and page say so
 * ("Mainnet node unreachable since 05:42 · next try in 35 s"), never only "Loading…", the header names each network
 * ("Testnet live · Mainnet unreachable"), and the next try counts down. Testnet is the devnet, live; the mainnet node
 * is a loopback port nobody listens on, named in the page's policy, so every connection to it is refused.
 */
import { c32address } from 'c32check';
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { recordHeaderWords, waitForServiceWorkerControl } from './support/app-page.ts';
import { control, waitForLive } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { layoutReport, screenshotsEverywhere } from './support/layout.ts';

const MAINNET = c32address(22, 'c01d'.padEnd(40, '5'));
let devnet: RunningDevnet;
let server: AppServer;
let browser: TestBrowser;
let port: number;
let page: Page;

/** A loopback port nobody listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port: free } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return free;
}

beforeAll(async () => {
  port = await closedPort();
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } }, connect: [`http://127.0.0.1:${port}`] });
  browser = await launchBrowser({ shell: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await devnet?.close();
});

const LINE =
  /^Mainnet node unreachable since \d{1,2}:\d{2}(\s?[AP]M)? · (next try in (\d+)\u00a0(s|min)|trying again now)$/;

describe('a mainnet node that cannot be reached beside a live testnet', () => {
  it('is said on the header, the row and the address page, with a next try that counts down', async () => {
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    const words = await recordHeaderWords(page);
    await page.goto(server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Mainnet node' });
    await form.getByLabel('Custom node URL').fill(`http://127.0.0.1:${port}`);
    await form.getByRole('button', { name: 'Use this node' }).click();
    await form.getByText(`Mainnet addresses now use http://127.0.0.1:${port}.`).waitFor();
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(MAINNET);
    await page.getByRole('button', { name: 'Watch' }).click();

    // The header names each network, the one down last with its next try.
    const header = page.locator('.connection-word');
    await expect
      .poll(() => header.textContent())
      .toMatch(/^Testnet live · Mainnet unreachable, next try in \d+\u00a0s$/);
    // Its total, never loaded, says why: not a bare "not known yet".
    await expect
      .poll(() => page.locator('.total').filter({ hasText: 'Mainnet' }).locator('dd').textContent())
      .toBe('node unreachable');
    // The countdown counts: the seconds go down while the same try waits (they are not frozen for half a minute).
    await expect
      .poll(
        async () => {
          const seconds = (await words())
            .map((word) => /next try in (\d+)\u00a0s$/.exec(word)?.[1])
            .filter((found): found is string => found !== undefined)
            .map(Number);
          return seconds.some((value, i) => i > 0 && value === seconds[i - 1]! - 1);
        },
        { interval: 250 },
      )
      .toBe(true);

    // Its row: not a bare "Not loaded yet".
    const row = page.locator('.watch-row').filter({ hasText: 'Not loaded yet' });
    await expect.poll(() => row.locator('.node-trouble-line').textContent()).toMatch(LINE);
    await screenshotsEverywhere(page, 'node-trouble-row', {
      show: row,
      check: async () => expect((await layoutReport(page)).overflow).toBe(0),
    });

    // Its page: the balance and the tokens say why nothing shows, never "Loading…" for ever.
    await row.getByRole('link').click();
    const balance = page.locator('.card', { hasText: 'No balance known yet' });
    await expect.poll(() => balance.locator('.node-trouble-line').textContent()).toMatch(LINE);
    expect(await balance.locator('.node-trouble-detail').textContent()).toMatch(/^Can’t reach 127\.0\.0\.1:\d+: /);
    const holdings = page.locator('.card').filter({ has: page.getByRole('heading', { name: 'Tokens and NFTs' }) });
    await expect
      .poll(() => holdings.locator('.note').textContent())
      .toMatch(/^Not loaded: they load once the node answers\. Mainnet node unreachable since/);
    await screenshotsEverywhere(page, 'node-trouble-address', {
      show: balance,
      check: async () => expect((await layoutReport(page)).overflow).toBe(0),
    });

    // Never "Connecting" once the node was found unreachable: a retry is not a new first attempt.
    const seen = await words();
    const found = seen.findIndex((word) => /Mainnet unreachable/.test(word));
    expect(
      seen.slice(found).filter((word) => /^Connecting|Mainnet connecting/.test(word)),
      seen.join(' | '),
    ).toEqual([]);
  });
});

/** Every text the element matched by `selector` takes from now on, in order (read back with the returned function). */
async function recordTexts(selector: string): Promise<() => Promise<string[]>> {
  const key = `texts ${selector}`;
  await page.evaluate(
    ([selector, key]) => {
      const seen: string[] = [];
      (window as unknown as Record<string, string[]>)[key] = seen;
      new MutationObserver(() => {
        const text = document.querySelector(selector)?.textContent;
        if (text && text !== seen.at(-1)) seen.push(text);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    },
    [selector, key] as const,
  );
  return () => page.evaluate((key) => (window as unknown as Record<string, string[]>)[key]!, key);
}

describe('a testnet node that goes down after it was live', () => {
  it('has its figures said to be as old as the last read, with why, never “checked just now”; live again after', async () => {
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    const total = page.locator('.total').filter({ hasText: 'Testnet' });
    const fresh = total.locator('.freshness');
    await expect.poll(() => fresh.textContent()).toBe(' · live');
    // Its mainnet address was never loaded: the testnet total's is the one freshness there is.
    expect(await page.locator('.totals .freshness').count()).toBe(1);
    const said = await recordTexts('.totals .freshness');

    await control(devnet, '/devnet/outage', { ms: 600_000 });
    try {
      // Once the app finds the node unreachable, the words say so, from when the figures were last read.
      const stale = /^ · last updated (just now|\d+ min ago) — node unreachable$/;
      await expect.poll(() => fresh.textContent()).toMatch(stale);
      // On the way: "reconnecting" while only the feed was lost, never a check the node did not answer. (The devnet
      // down accepts a socket and cuts it at once: the feed is live for that moment, and says so.)
      const seen = await said();
      expect(
        seen.filter(
          (words) => !/^ · (live|last updated (just now|\d+ min ago) — (reconnecting|node unreachable))$/.test(words),
        ),
        seen.join(' | '),
      ).toEqual([]);
      expect(seen).toContain(' · last updated just now — reconnecting');
      await screenshotsEverywhere(page, 'node-down-totals', {
        show: total,
        check: async () => expect((await layoutReport(page)).overflow).toBe(0),
      });

      // The address page likewise, where "Checked with the node just now." was said.
      await page.locator('.watch-row').filter({ hasText: 'Alice' }).getByRole('link').first().click();
      const note = page.locator('.address-stale');
      await expect.poll(() => note.textContent()).toMatch(/^Last updated (just now|\d+ min ago) — node unreachable\.$/);
      await expect.poll(() => page.locator('.balance-card .freshness').count()).toBe(0);
      await screenshotsEverywhere(page, 'node-down-balance', {
        show: page.locator('.balance-card'),
        check: async () => expect((await layoutReport(page)).overflow).toBe(0),
      });
    } finally {
      await control(devnet, '/devnet/outage', { ms: 0 });
    }
    await expect.poll(() => page.locator('.balance-card .freshness.live').count()).toBe(1);
  });
});
