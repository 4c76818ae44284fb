import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readServerConfig } from '../../src/server/server-config.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { layoutReport, screenshotsEverywhere } from './support/layout.ts';

/**
 * The production server builds its policy at start: a node a user types in Settings that the deployment did not
 * allow is refused by the browser, and Test connection says so in plain words (the app's security policy, what to
 * do), with the policy's directive and the setting that allows the node folded away as a technical detail. The same
 * node, allowed with --connect-src (STACKS_WATCH_CONNECT_SRC), connects.
 */
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
let devnet: RunningDevnet;
let browser: TestBrowser;
const servers: RunningServer[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  browser = await launchBrowser({ shell: true });
});

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

/** What Test connection says of `nodeUrl`, and the technical detail under it (empty when there is none). */
async function testConnection(server: RunningServer, nodeUrl: string): Promise<{ text: string; detail: string }> {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/settings`);
  const testnet = page.getByRole('form', { name: 'Testnet node' });
  await testnet.getByLabel('Custom node URL').fill(nodeUrl);
  await testnet.getByRole('button', { name: 'Test connection' }).click();
  const outcome = testnet.getByText(/^(Connected: block|This app’s security policy|.* cannot be reached)/);
  await outcome.waitFor();
  const text = (await outcome.textContent()) ?? '';
  const detail = testnet.locator('details.node-detail p');
  const detailText = (await detail.count()) > 0 ? ((await detail.textContent()) ?? '') : '';
  await page.close();
  return { text, detail: detailText };
}

/** The http(s) origins the policy's connect-src lists beside 'self': the nodes the page may contact. */
const policyNodes = (policy: string): string[] =>
  (/connect-src ([^;]+)/.exec(policy)?.[1] ?? '').split(' ').filter((source) => /^https?:\/\//.test(source));

/**
 * What Settings says of the nodes (screenshots of it under `name`): the listed origins, and whether its request
 * budget's note offers a node on this device.
 */
async function nodesHint(server: RunningServer, name: string): Promise<{ listed: string[]; localBudget: boolean }> {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/settings`);
  const list = page.getByRole('list', { name: 'Nodes this app may contact' });
  await list.waitFor();
  const hint = page.locator('.node-policy');
  expect(await hint.textContent()).toContain('Any other is refused; whoever runs this app’s server can allow it.');
  await screenshotsEverywhere(page, name, {
    show: hint,
    check: async () => expect((await layoutReport(page)).overflow).toBe(0),
  });
  const listed = await list.locator('li').allTextContents();
  const budget = await page
    .getByRole('form', { name: 'Testnet node' })
    .getByText(/^Empty: /)
    .textContent();
  await page.close();
  return { listed, localBudget: /a node on this device/.test(budget ?? '') };
}

describe('Test connection and the Content Security Policy', () => {
  it('Settings lists the nodes the served policy lets the page contact, and offers no other', async () => {
    const server = await appServer([]);
    const allowed = policyNodes(server.contentSecurityPolicy);
    expect(allowed).not.toContain(devnet.url);
    const { listed, localBudget } = await nodesHint(server, 'settings-nodes-public');
    expect(listed).toEqual(allowed);
    // No node on this device is allowed: the request budget's note does not offer one.
    expect(localBudget).toBe(false);

    const widened = await appServer(['--connect-src', devnet.url]);
    const widenedAllowed = policyNodes(widened.contentSecurityPolicy);
    expect(widenedAllowed).toContain(devnet.url);
    const hint = await nodesHint(widened, 'settings-nodes-allowed');
    expect(hint.listed).toEqual(widenedAllowed);
    expect(hint.localBudget).toBe(true);
  });

  it('says in plain words that the policy refused a node the deployment did not allow, the setting in its detail', async () => {
    const server = await appServer([]);
    expect(server.contentSecurityPolicy).not.toContain(devnet.url);
    const { text, detail } = await testConnection(server, devnet.url);
    expect(text).toBe(
      `This app’s security policy does not allow it to contact ${devnet.url}, so the browser blocked the request. ` +
        'Use the default node, or ask whoever runs this app’s server to allow this one.',
    );
    expect(detail).toContain('Content-Security-Policy (connect-src)');
    expect(detail).toContain(`STACKS_WATCH_CONNECT_SRC="${devnet.url}" (--connect-src)`);
  });

  it('connects to the same node once the deployment allows it', async () => {
    const server = await appServer(['--connect-src', devnet.url]);
    const { text } = await testConnection(server, devnet.url);
    expect(text).toMatch(/^Connected: block \d+, .*\. It serves testnet\.$/);
  });
});
