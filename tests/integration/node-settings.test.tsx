import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderApp } from './render-app.tsx';

/** A node on this machine, as the network stand-in answers it: its `/v2/pox` says which chain it serves. */
const NODE = 'http://127.0.0.1:3999';
const POX_CONTRACT = { mainnet: 'SP000000000000000000002Q6VF78.pox-4', testnet: 'ST000000000000000000002AMW42H.pox-5' };
const server = setupServer();
const serves = (network: keyof typeof POX_CONTRACT) =>
  server.use(http.get(`${NODE}/v2/pox`, () => HttpResponse.json({ contract_id: POX_CONTRACT[network] })));

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

async function mainnetNode() {
  const app = await renderApp('/settings');
  const form = await screen.findByRole('form', { name: 'Mainnet node' });
  const button = (name: string) => within(form).getByRole('button', { name }) as HTMLButtonElement;
  return { ...app, form, url: within(form).getByLabelText('Custom node URL'), button };
}

describe('Settings → a network’s node', () => {
  it('offers “Use this node” and “Test connection” only once the URL field holds something', async () => {
    const { user, url, button } = await mainnetNode();
    expect(button('Use this node').disabled).toBe(true);
    expect(button('Test connection').disabled).toBe(true);

    await user.type(url, '   ');
    expect(button('Use this node').disabled).toBe(true);

    await user.type(url, 'h');
    expect(button('Use this node').disabled).toBe(false);
    expect(button('Test connection').disabled).toBe(false);

    await user.clear(url);
    expect(button('Use this node').disabled).toBe(true);
  });

  it('still says precisely what is wrong with what was typed', async () => {
    const { user, url, button } = await mainnetNode();
    await user.type(url, 'ftp://node.example.com');
    await user.click(button('Use this node'));
    expect((await screen.findByRole('alert')).textContent).toBe('Only http and https nodes are supported, not ftp.');

    await user.clear(url);
    await user.type(url, 'node example');
    await user.click(button('Use this node'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This is not a web address. Enter one like https://stacks-node.example.com.',
    );
  });

  it('takes a request budget for the node, refusing what is not one with the reason, and keeps it', async () => {
    const { user, url, form, button, stores } = await mainnetNode();
    const budget = within(form).getByLabelText('Requests a minute (optional)');
    serves('mainnet');
    await user.type(url, 'http://127.0.0.1:3999');
    await user.type(budget, 'lots');
    await user.click(button('Use this node'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '“lots” is not a number of requests. Enter a whole number, for example 120, or leave it empty.',
    );
    await user.clear(budget);
    await user.type(budget, '100000');
    await user.click(button('Use this node'));
    expect((await screen.findByRole('alert')).textContent).toBe('At most 6,000 requests a minute; 100,000 is more.');
    expect(stores.settings.get().mainnet).toBeUndefined();
    await user.clear(budget);
    await user.type(budget, '1,200');
    await user.click(button('Use this node'));
    await screen.findByText('Mainnet addresses now use http://127.0.0.1:3999. It serves mainnet.');
    expect(stores.settings.get().mainnet).toEqual({ url: 'http://127.0.0.1:3999', apiKey: null, perMinute: 1200 });
  });

  it('refuses a testnet node as the mainnet node, saying so, and keeps what was typed', async () => {
    const { user, url, form, button, stores } = await mainnetNode();
    const key = within(form).getByLabelText(/API key/);
    const budget = within(form).getByLabelText('Requests a minute (optional)');
    serves('testnet');
    await user.type(url, `${NODE}/`);
    await user.type(key, 'node-key-1');
    await user.type(budget, '90');
    await user.click(button('Use this node'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This node serves testnet; the mainnet node must serve mainnet. ' +
        'Enter a mainnet node here, or set this one as the testnet node.',
    );
    expect(stores.settings.get().mainnet).toBeUndefined();
    expect([
      (url as HTMLInputElement).value,
      (key as HTMLInputElement).value,
      (budget as HTMLInputElement).value,
    ]).toEqual([`${NODE}/`, 'node-key-1', '90']);

    // Test connection says the same of a node that answers as a Stacks API.
    server.use(
      http.get(`${NODE}/extended`, () =>
        HttpResponse.json({
          server_version: 'v9',
          status: 'ready',
          chain_tip: { block_height: 7, burn_block_height: 9 },
        }),
      ),
    );
    await user.click(button('Test connection'));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/^This node serves testnet;/));
    expect(screen.queryByText(/^Connected/)).toBeNull();

    serves('mainnet');
    await user.click(button('Use this node'));
    await screen.findByText(`Mainnet addresses now use ${NODE}. It serves mainnet.`);
    expect(stores.settings.get().mainnet).toEqual({ url: NODE, apiKey: 'node-key-1', perMinute: 90 });
  });

  it('refuses a node this app’s security policy blocks, saying what to do, and keeps what was typed', async () => {
    const { user, url, form, button, stores } = await mainnetNode();
    // As the browser does: the request fails like an unreachable host, and the page hears why in an event.
    server.use(
      http.get(`${NODE}/v2/pox`, () => {
        const violation = Object.assign(new Event('securitypolicyviolation'), {
          effectiveDirective: 'connect-src',
          blockedURI: `${NODE}/v2/pox`,
        });
        queueMicrotask(() => window.dispatchEvent(violation));
        return HttpResponse.error();
      }),
    );
    await user.type(url, NODE);
    await user.click(button('Use this node'));
    expect((await screen.findByRole('alert')).textContent).toBe(
      `This app’s security policy does not allow it to contact ${NODE}, so the browser blocked the request. ` +
        'Use the default node, or ask whoever runs this app’s server to allow this one.',
    );
    expect(within(form).getByText(/^For that server: its Content-Security-Policy \(connect-src\)/)).toBeTruthy();
    expect(screen.queryByText(/addresses now use/)).toBeNull();
    expect(stores.settings.get().mainnet).toBeUndefined();
    expect((url as HTMLInputElement).value).toBe(NODE);
  });

  it('keeps a node it cannot reach, with a note that its network could not be checked', async () => {
    const { user, url, button, stores } = await mainnetNode();
    server.use(http.get(`${NODE}/v2/pox`, () => HttpResponse.error()));
    await user.type(url, NODE);
    await user.click(button('Use this node'));
    const note = await screen.findByText(/^Mainnet addresses now use http:\/\/127\.0\.0\.1:3999\. /);
    expect(note.textContent).toBe(
      `Mainnet addresses now use ${NODE}. ${NODE} cannot be reached: check the address, that the node is running, ` +
        'and that it allows this app (CORS). Which network it serves could not be checked: make sure it is a mainnet node.',
    );
    expect(stores.settings.get().mainnet).toEqual({ url: NODE, apiKey: null });
  });
});
