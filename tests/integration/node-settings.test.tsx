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
});
