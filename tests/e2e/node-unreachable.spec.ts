/**
 * An unreachable node, as a user meets it: the connection panel says what happened in words (not the browser's
 * "Failed to fetch") and when the next try is. The node is a loopback port this page may not contact (the page's
 * policy refuses it before it leaves); the oracle is that port's own count of connections: none.
 */
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { waitForServiceWorkerControl } from './support/app-page.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false });
let connections = 0;
const node = createServer((socket) => {
  connections += 1;
  socket.destroy();
});
afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())));

describe('a node the app cannot reach', () => {
  it('is told in words in the connection panel, with the next try', async () => {
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(node.address() as { port: number }).port}`;
    const page = await harness.browser.context.newPage();
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await page.locator('.connection-live').waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Testnet node' });
    await form.getByLabel('Custom node URL').fill(`http://${host}`);
    await form.getByRole('button', { name: 'Use this node' }).click();
    await form.getByText(`Testnet addresses now use http://${host}.`).waitFor();

    await page.locator('.connection-indicator').click();
    const problem = page.locator('.connection-details .error');
    await expect
      .poll(() => problem.first().textContent(), { timeout: 30_000 })
      .toMatch(new RegExp(`Can’t reach ${host.replace(/\./g, '\\.')}: no network, the name does not resolve`));
    // One sentence: what happened, then when the next try is (no ". —" between).
    await expect
      .poll(() => problem.first().textContent(), { timeout: 30_000 })
      .toMatch(/[^.]; next try in \d+\s(s|min)\.$/);
    expect(await page.locator('.connection-details').textContent()).not.toMatch(/Failed to fetch/);
    expect(connections).toBe(0);
  }, 90_000);
});
