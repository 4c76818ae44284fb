/**
 * An unreachable node, as a user meets it: the connection panel says what happened in words (not the browser's
 * "Failed to fetch") and when the next try is. The node is a loopback port the page's policy lets it contact, whose
 * every connection is cut at once; the oracle is that port's own count of connections: the app tried it. (A node the
 * policy does not let the page contact is refused in Settings: node-network.spec.)
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { waitForServiceWorkerControl } from './support/app-page.ts';

let devnet: RunningDevnet;
let server: AppServer;
let browser: TestBrowser;
let host: string;
let connections = 0;
const node = createServer((socket) => {
  connections += 1;
  socket.destroy();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(node.address() as { port: number }).port}`;
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } }, connect: [`http://${host}`] });
  browser = await launchBrowser({ shell: true });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await devnet?.close();
  await new Promise<void>((resolve) => node.close(() => resolve()));
});

describe('a node the app cannot reach', () => {
  it('is told in words in the connection panel, with the next try', async () => {
    const page = await browser.context.newPage();
    await page.goto(server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await page.locator('.connection-live').waitFor();
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Testnet node' });
    await form.getByLabel('Custom node URL').fill(`http://${host}`);
    await form.getByRole('button', { name: 'Use this node' }).click();
    await form.getByText(`Testnet addresses now use http://${host}.`).waitFor();

    await page.locator('.connection-indicator').click();
    const problem = page.locator('.connection-details .error');
    await expect
      .poll(() => problem.first().textContent())
      .toMatch(new RegExp(`Can’t reach ${host.replace(/\./g, '\\.')}: no network, the name does not resolve`));
    // One sentence: what happened, then when the next try is (no ". —" between).
    await expect.poll(() => problem.first().textContent()).toMatch(/[^.]; next try in \d+\s(s|min)\.$/);
    expect(await page.locator('.connection-details').textContent()).not.toMatch(/Failed to fetch/);
    // The words are of a node the app really tried, not of one its policy kept it from.
    expect(connections).toBeGreaterThan(0);
  });
});
