/**
 * A request that never reached its host is no contact. A node typed in Settings that the page's Content Security
 * Policy does not list is tested: the browser refuses the request before it leaves. The oracle is the host itself,
 * a loopback server counting every connection made to it (none), and the browser's report of the refusal; "Who
 * knows what" must list that host as tried, never reached, told nothing.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { waitForServiceWorkerControl } from './support/app-page.ts';

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });

/** The custom node's host: it only counts connections (and closes them). */
const connections: Socket[] = [];
const node = createServer((socket) => {
  connections.push(socket);
  socket.destroy();
});
afterAll(() => new Promise<void>((resolve) => node.close(() => resolve())));

describe('who knows what, when a host was never reached', () => {
  it('lists a node the page refused to contact as tried, not as contacted', async () => {
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(node.address() as { port: number }).port}`;
    const page = await harness.browser.context.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Refused to connect') && message.text().includes(host)) refusals.push(message.text());
    });
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    const form = page.getByRole('form', { name: 'Mainnet node' });
    await form.getByLabel('Custom node URL').fill(`http://${host}`);
    await form.getByRole('button', { name: 'Test connection' }).click();
    await form.getByRole('alert').waitFor();
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    expect(connections).toHaveLength(0);

    await page.getByRole('link', { name: 'Who knows what' }).first().click();
    const card = page.getByRole('region', { name: host });
    await card.getByText('Never reached.').waitFor();
    const text = await card.textContent();
    expect(text).toContain(`The app tried ${host} but never reached it`);
    expect(text).toContain('Tried once without an answer');
    expect(text).not.toMatch(/Contacted|was contacted|sees your IP/);
    expect(await card.locator('.host-address').count()).toBe(0);
    expect(connections).toHaveLength(0);
  });
});
