/**
 * A node typed in Settings is asked which network it serves before it is used. The devnet (testnet-like: its PoX
 * contract is deployed by a testnet address) typed as the mainnet node is refused, what was typed kept; a mainnet
 * node typed as the testnet node likewise. A node the page's policy does not let it contact is refused too, in plain
 * words, its exact cause folded under them; its host counts every connection made to it: none.
 */
import { createServer, type Socket } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { layoutReport, LOOK_SIZES, screenshotsEverywhere } from './support/layout.ts';
import { startMainnetNodeStandIn, type MainnetNodeStandIn } from './support/mainnet-node.ts';

let devnet: RunningDevnet;
let mainnet: MainnetNodeStandIn;
let server: AppServer;
let browser: TestBrowser;
let page: Page;
/** A loopback host the page's policy does not list: it only counts connections. */
const blockedConnections: Socket[] = [];
const blocked = createServer((socket) => {
  blockedConnections.push(socket);
  socket.destroy();
});

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  mainnet = await startMainnetNodeStandIn();
  await new Promise<void>((resolve) => blocked.listen(0, '127.0.0.1', resolve));
  server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } }, connect: [mainnet.url] });
  browser = await launchBrowser({ shell: true });
  page = await browser.context.newPage();
  await page.setViewportSize(LOOK_SIZES[1]);
  await page.goto(`${server.url}/settings`);
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await mainnet?.close();
  await devnet?.close();
  await new Promise<void>((resolve) => blocked.close(() => resolve()));
});

const form = (network: 'Mainnet' | 'Testnet'): Locator => page.getByRole('form', { name: `${network} node` });

async function use(network: 'Mainnet' | 'Testnet', url: string): Promise<void> {
  await form(network).getByLabel('Custom node URL').fill(url);
  await form(network).getByRole('button', { name: 'Use this node' }).click();
}

/** Sideways scrolling at every size the screenshots are taken at. */
async function overflowEverywhere(): Promise<number[]> {
  const overflow: number[] = [];
  for (const size of LOOK_SIZES) {
    await page.setViewportSize(size);
    overflow.push((await layoutReport(page)).overflow);
  }
  await page.setViewportSize(LOOK_SIZES[1]);
  return overflow;
}

describe('a node typed in Settings serves the network it is typed for', () => {
  it('refuses the devnet, a testnet node, as the mainnet node, keeping what was typed', async () => {
    const mainnetForm = form('Mainnet');
    // The default node, once the runtime config is read.
    const inUseLine = mainnetForm.getByText(/^In use: /);
    await expect.poll(() => inUseLine.textContent()).toMatch(/^In use: https:\/\//);
    const inUse = await inUseLine.textContent();
    await mainnetForm.getByLabel('Custom node URL').fill(devnet.url);
    await mainnetForm.getByLabel(/API key/).fill('typed-key-1');
    await mainnetForm.getByRole('button', { name: 'Use this node' }).click();
    const alert = mainnetForm.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'This node serves testnet; the mainnet node must serve mainnet. ' +
        'Enter a mainnet node here, or set this one as the testnet node.',
    );
    expect(await mainnetForm.getByLabel('Custom node URL').inputValue()).toBe(devnet.url);
    expect(await mainnetForm.getByLabel(/API key/).inputValue()).toBe('typed-key-1');
    expect(await mainnetForm.getByText(/^In use: /).textContent()).toBe(inUse);
    expect(await mainnetForm.getByRole('button', { name: 'Use the default' }).count()).toBe(0);
    expect(await overflowEverywhere()).toEqual([0, 0, 0]);
    await screenshotsEverywhere(page, 'node-wrong-network', { show: alert, block: 'end' });

    // Test connection says the same, not "Connected".
    await mainnetForm.getByRole('button', { name: 'Test connection' }).click();
    await expect
      .poll(() => mainnetForm.getByRole('alert').textContent())
      .toMatch(/^This node serves testnet; the mainnet node must serve mainnet\./);

    // As the testnet node it is what it should be.
    await use('Testnet', devnet.url);
    await form('Testnet').getByText(`Testnet addresses now use ${devnet.url}. It serves testnet.`).waitFor();
  });

  it('refuses a mainnet node as the testnet node, and takes it as the mainnet node', async () => {
    await use('Testnet', mainnet.url);
    const alert = form('Testnet').getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toBe(
        'This node serves mainnet; the testnet node must serve testnet. ' +
          'Enter a testnet node here, or set this one as the mainnet node.',
      );
    expect(await form('Testnet').getByLabel('Custom node URL').inputValue()).toBe(mainnet.url);
    expect(
      await form('Testnet')
        .getByText(/^In use: /)
        .textContent(),
    ).toBe(`In use: ${devnet.url}`);

    await form('Mainnet')
      .getByLabel(/API key/)
      .fill('');
    await use('Mainnet', mainnet.url);
    await form('Mainnet').getByText(`Mainnet addresses now use ${mainnet.url}. It serves mainnet.`).waitFor();
    expect(
      await form('Mainnet')
        .getByText(/^In use: /)
        .textContent(),
    ).toBe(`In use: ${mainnet.url}`);
    expect(mainnet.asked.filter((path) => path === '/v2/pox')).toHaveLength(2);
  });

  it('refuses a node the app may not contact, saying so in plain words, the setting’s name folded away', async () => {
    const host = `http://127.0.0.1:${(blocked.address() as { port: number }).port}`;
    await use('Mainnet', host);
    const alert = form('Mainnet').getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toBe(
        `This app’s security policy does not allow it to contact ${host}, so the browser blocked the request. ` +
          'Use the default node, or ask whoever runs this app’s server to allow this one.',
      );
    expect(await alert.textContent()).not.toMatch(/Content.Security|connect-src|CSP|STACKS_WATCH/);
    expect(
      await form('Mainnet')
        .getByText(/addresses now use/)
        .count(),
    ).toBe(0);
    const detail = form('Mainnet').locator('details.node-detail');
    expect(await detail.locator('summary').textContent()).toBe('Technical detail');
    await detail.locator('summary').click();
    expect(await detail.locator('p').textContent()).toBe(
      `For that server: its Content-Security-Policy (connect-src) does not list ${host}; ` +
        `the setting STACKS_WATCH_CONNECT_SRC="${host}" (--connect-src) allows it.`,
    );
    expect(await form('Mainnet').getByLabel('Custom node URL').inputValue()).toBe(host);
    expect(
      await form('Mainnet')
        .getByText(/^In use: /)
        .textContent(),
    ).toBe(`In use: ${mainnet.url}`);
    expect(blockedConnections).toHaveLength(0);
    expect(await overflowEverywhere()).toEqual([0, 0, 0]);
    await screenshotsEverywhere(page, 'node-blocked', { show: detail, block: 'end' });
  });
});
