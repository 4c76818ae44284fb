/**
 * The header's connection words tell a node never reached from a connection lost: a node that refuses every
 * connection from the start reads "Can’t reach node" with its next try, never "Reconnecting"; a live node that goes
 * down reads "Reconnecting". Every word the header showed is recorded as it changes (not sampled), so a passing one
 * counts too. Both nodes are on loopback: the refusing one is a port nobody listens on, named in the page's policy.
 */
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { c32address } from 'c32check';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { recordHeaderWords, waitForServiceWorkerControl } from './support/app-page.ts';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshotsEverywhere } from './support/layout.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
const TESTNET = c32address(26, 'b0b'.padEnd(40, '7'));
let refusing: AppServer | null = null;
afterAll(() => refusing?.close());

/** A loopback port nobody listens on: every connection to it is refused. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('the header’s connection words', () => {
  it('read “Can’t reach node” with the next try for a node that never answered, never “Reconnecting”', async () => {
    const port = await closedPort();
    refusing = await serveApp({ runtimeConfig: { devnet: { url: `http://127.0.0.1:${port}` } } });
    const page = await harness.browser.context.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    const words = await recordHeaderWords(page);
    await page.goto(refusing.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(TESTNET);
    await page.getByRole('button', { name: 'Watch' }).click();
    // A whole round: refused, waited, tried again at its time, refused again and the next try told.
    await expect
      .poll(
        async () => {
          const seen = await words();
          const retried = seen.findIndex((word) => /^Can’t reach node(, trying again now)?$/.test(word));
          return retried >= 0 && seen.slice(retried + 1).some((word) => /^Can’t reach node, next try in/.test(word));
        },
        { interval: 250 },
      )
      .toBe(true);
    const seen = await words();
    expect(
      seen.filter((word) => /Reconnecting/i.test(word)),
      seen.join(' | '),
    ).toEqual([]);
    expect(seen[0]).toMatch(/^Connecting/);
    // Once not reached, it stays so across its retries: never back to "Connecting" (orange) between two tries.
    const reached = seen.findIndex((word) => word.startsWith('Can’t reach'));
    expect(
      seen.slice(reached).filter((word) => !word.startsWith('Can’t reach')),
      seen.join(' | '),
    ).toEqual([]);

    await page.locator('.connection-indicator').click();
    const line = page.locator('.connection-details p', { hasText: 'Testnet' });
    expect(await line.textContent()).toMatch(/^Testnet unreachable(, trying again…)? · Local devnet/);
    await expect
      .poll(() => line.locator('.error').textContent())
      .toMatch(/^Can’t reach 127\.0\.0\.1:\d+: .*refused.*; (next try in \d+\s(s|min)|trying again now)\.$/);
    await screenshotsEverywhere(page, 'node-never-reached');
    await page.close();
  });

  it('read “Reconnecting” once a live node goes down, and “Live” again when it is back', async () => {
    const page = await harness.browser.context.newPage();
    const words = await recordHeaderWords(page);
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await control(harness.devnet, '/devnet/outage', { ms: 4_000 });
    await expect.poll(async () => (await words()).some((word) => word.startsWith('Reconnecting'))).toBe(true);
    await page.locator('.connection-live').waitFor();
    expect((await words()).filter((word) => word.startsWith('Can’t reach'))).toEqual([]);
    await page.close();
  });
});
