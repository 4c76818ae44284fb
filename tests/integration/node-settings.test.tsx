import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from './render-app.tsx';

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
    await screen.findByText('Mainnet addresses now use http://127.0.0.1:3999.');
    expect(stores.settings.get().mainnet).toEqual({ url: 'http://127.0.0.1:3999', apiKey: null, perMinute: 1200 });
  });
});
