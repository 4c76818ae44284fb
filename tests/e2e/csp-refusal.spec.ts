import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readServerConfig } from '../../src/server/server-config.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';

/**
 * The production server builds its policy at start: a node a user types in Settings that the deployment did not
 * allow is refused by the browser, and Test connection says that it was the policy, and which setting allows it.
 * The same node, allowed with --connect-src (STACKS_WATCH_CONNECT_SRC), connects.
 */
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
let devnet: RunningDevnet;
let browser: TestBrowser;
const servers: RunningServer[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.close();
  await devnet?.close();
});

async function appServer(flags: string[]): Promise<RunningServer> {
  const server = await startServer(readServerConfig(['--port', '0', '--no-relay', ...flags], {}, DIST));
  servers.push(server);
  return server;
}

async function testConnection(server: RunningServer, nodeUrl: string): Promise<string> {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/settings`);
  const testnet = page.getByRole('form', { name: 'Testnet node' });
  await testnet.getByLabel('Custom node URL').fill(nodeUrl);
  await testnet.getByRole('button', { name: 'Test connection' }).click();
  const outcome = testnet.getByText(/^(Connected: block|This app’s Content|This app's Content|.* cannot be reached)/);
  await outcome.waitFor({ timeout: 20_000 });
  const text = (await outcome.textContent()) ?? '';
  await page.close();
  return text;
}

describe('Test connection and the Content Security Policy', () => {
  it('says the policy refused a node the deployment did not allow, and names the setting', async () => {
    const server = await appServer([]);
    expect(server.contentSecurityPolicy).not.toContain(devnet.url);
    const text = await testConnection(server, devnet.url);
    expect(text).toContain(`does not allow ${devnet.url}`);
    expect(text).toContain('Content Security Policy');
    expect(text).toContain(`STACKS_WATCH_CONNECT_SRC="${devnet.url}"`);
  });

  it('connects to the same node once the deployment allows it', async () => {
    const server = await appServer(['--connect-src', devnet.url]);
    expect(await testConnection(server, devnet.url)).toMatch(/^Connected: block \d+/);
  });
});
