import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { parsePrincipal } from '../../src/domain/address/address.ts';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { renderApp } from './render-app.tsx';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';

const entry = (n: number): InboxEntry => ({
  id: `testnet:${ME}:0x${n.toString(16).padStart(4, '0')}`,
  network: 'testnet',
  principal: ME,
  txId: `0x${n.toString(16).padStart(4, '0')}`,
  phase: 'confirmed',
  title: `Received ${n} STX`,
  body: 'Treasury',
  path: `/address/${ME}#tx-0x${n.toString(16).padStart(4, '0')}`,
  firstAt: n,
  at: n,
  read: false,
  deliveries: [{ phase: 'confirmed', via: 'notification', at: n }],
  undelivered: false,
});

const items = () => screen.queryAllByRole('listitem');

describe('the inbox', () => {
  it('lists the newest 200 alerts, shows older ones on request, and marks everything read', async () => {
    const { user, stores } = await renderApp('/inbox');
    await stores.inbox.change(new Map(Array.from({ length: 250 }, (_, n) => [entry(n).id, () => entry(n)])));
    await waitFor(() => expect(items()).toHaveLength(200), { timeout: 10_000 });
    expect(items()[0]!.textContent).toContain('Received 249 STX');
    expect(screen.getByText('250 unread')).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Show older alerts (50 more)' }));
    expect(items()).toHaveLength(250);
    expect(items()[249]!.textContent).toContain('Received 0 STX');
    expect(screen.queryByRole('button', { name: /Show older/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(stores.inbox.unread()).toBe(0), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByText('Everything is read.')).toBeDefined(), { timeout: 10_000 });
    expect(stores.inbox.unread()).toBe(0);
    // jsdom renders 250 grouped entries slowly on a shared machine.
  });

  it('groups a day by address, filters unread and by address, marks read on open, and deletes', async () => {
    const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
    const now = Date.now();
    const mine = (n: number) => ({ ...entry(n), at: now - n * 1000, firstAt: now - n * 1000 });
    const other = {
      ...mine(9),
      id: `testnet:${OTHER}:0x9`,
      principal: OTHER,
      title: 'Sent 9 STX',
      path: `/address/${OTHER}`,
    };
    const { user, stores } = await renderApp('/inbox');
    await stores.inbox.change(new Map([mine(1), other, mine(3)].map((alert) => [alert.id, () => alert])));

    await user.click(await screen.findByRole('checkbox', { name: 'Group by address' }));
    const groups = await screen.findAllByRole('group', { name: /, \d+ alerts?$/ });
    expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual([
      'ST3TBR…J7X4, 2 alerts',
      'ST2CY5…K9AG, 1 alert',
    ]);
    expect(screen.getByRole('heading', { level: 2, name: 'Today' })).toBeDefined();

    await user.selectOptions(screen.getByLabelText('Alerts of'), OTHER);
    expect(items().map((item) => item.textContent)).toEqual([expect.stringContaining('Sent 9 STX')]);
    await user.click(within(items()[0]!).getByRole('link'));
    await waitFor(() => expect(stores.inbox.get(other.id)?.read).toBe(true));

    await user.click(screen.getByRole('link', { name: /Inbox/ }));
    await user.selectOptions(await screen.findByLabelText('Alerts of'), 'all');
    await user.click(screen.getByRole('radio', { name: 'Unread (2)' }));
    expect(items()).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Delete the alert “Received 1 STX”' }));
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(stores.inbox.get(mine(1).id)).toBeUndefined();
  });

  it('names the address once in each row, as the user calls it now; grouped, in the heading of its group only', async () => {
    const { user, controller, stores } = await renderApp('/inbox');
    const principal = parsePrincipal(ME);
    if (!principal.ok) throw new Error('test address');
    controller.add(principal.value, 'Treasury (cold)');
    const now = Date.now();
    const alert = (n: number, body: string) => ({ ...entry(n), at: now - n * 1000, firstAt: now - n * 1000, body });
    // The first line of an alert's words names the address as it was called then (a notification needs it); the
    // rest is the alert's own.
    const alerts = [alert(1, 'Treasury\nFrom Bob'), alert(2, 'Treasury\nTo Carol\n“rent”'), alert(3, 'Treasury')];
    await stores.inbox.change(new Map(alerts.map((one) => [one.id, () => one])));

    await waitFor(() => expect(items()).toHaveLength(3));
    // Each row says its state in a chip before what happened.
    const shown = () => items().map((item) => item.textContent);
    expect(shown()).toEqual([
      expect.stringMatching(/^ConfirmedReceived 1 STXTreasury \(cold\)just nowFrom Bob/),
      expect.stringMatching(/^ConfirmedReceived 2 STXTreasury \(cold\)just nowTo Carol\n“rent”/),
      expect.stringMatching(/^ConfirmedReceived 3 STXTreasury \(cold\)just now✓$/),
    ]);
    expect(
      items().map((item) => within(item).getByRole('link', { name: /^Unread: Treasury \(cold\): / })),
    ).toHaveLength(3);

    await user.click(screen.getByRole('checkbox', { name: 'Group by address' }));
    const group = await screen.findByRole('group', { name: 'Treasury (cold), 3 alerts' });
    expect(within(group).getByRole('heading', { level: 3 }).textContent).toMatch(/^▾Treasury \(cold\)3 unread/);
    expect(shown()).toEqual([
      expect.stringMatching(/^ConfirmedReceived 1 STXjust nowFrom Bob/),
      expect.stringMatching(/^ConfirmedReceived 2 STXjust nowTo Carol\n“rent”/),
      expect.stringMatching(/^ConfirmedReceived 3 STXjust now✓$/),
    ]);
    expect(shown().filter((text) => text!.includes('Treasury'))).toEqual([]);
  });
});
