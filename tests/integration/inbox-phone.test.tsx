import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { renderApp } from './render-app.tsx';

const BUSY = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const QUIET = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';

/** Alert n of an address, n seconds old. */
const alert = (principal: string, n: number, now: number): InboxEntry => ({
  id: `testnet:${principal}:0x${n.toString(16).padStart(4, '0')}`,
  network: 'testnet',
  principal,
  txId: `0x${n.toString(16).padStart(4, '0')}`,
  phase: 'confirmed',
  title: `${principal === BUSY ? 'Received' : 'Sent'} ${n} STX`,
  body: '',
  path: `/address/${principal}`,
  firstAt: now - n * 1000,
  at: now - n * 1000,
  read: false,
  deliveries: [],
  undelivered: false,
});

const titles = () => screen.queryAllByRole('listitem').map((item) => within(item).getByRole('link').textContent);

describe('the inbox on a phone', () => {
  it('keeps time order by default, so a busy address cannot bury a quiet one; grouping is a choice, and folds', async () => {
    const now = Date.now();
    // The quiet address's alert is the second newest, between the busy one's.
    const alerts = [alert(BUSY, 1, now), alert(QUIET, 2, now), ...[3, 4, 5, 6].map((n) => alert(BUSY, n, now))];
    const { user, stores } = await renderApp('/inbox');
    await stores.inbox.change(new Map(alerts.map((one) => [one.id, () => one])));
    await waitFor(() => expect(titles()).toHaveLength(6));
    expect(titles()).toEqual([
      'Unread: Received 1 STX',
      'Unread: Sent 2 STX',
      ...[3, 4, 5, 6].map((n) => `Unread: Received ${n} STX`),
    ]);

    await user.click(screen.getByRole('checkbox', { name: 'Group by address' }));
    const groups = () =>
      screen.getAllByRole('group', { name: /, \d+ alerts?$/ }).map((group) => group.getAttribute('aria-label'));
    expect(groups()).toEqual(['ST3TBR…J7X4, 5 alerts', 'ST2CY5…K9AG, 1 alert']);
    await user.click(screen.getByRole('button', { name: /ST3TBR…J7X4/, expanded: true }));
    expect(titles()).toEqual(['Unread: Sent 2 STX']);
    expect(screen.getByRole('button', { name: /ST3TBR…J7X4/, expanded: false }).textContent).toContain('5 alerts');
  });

  it('marks one group read, or one alert (the button a swipe right stands for), and deletes one', async () => {
    const now = Date.now();
    const alerts = [alert(BUSY, 1, now), alert(BUSY, 2, now), alert(QUIET, 3, now), alert(QUIET, 4, now)];
    const { user, stores } = await renderApp('/inbox');
    await stores.inbox.change(new Map(alerts.map((one) => [one.id, () => one])));
    const busy = await screen.findByRole('group', { name: 'ST3TBR…J7X4, 2 alerts' });
    await user.click(within(busy).getByRole('button', { name: 'Mark these read' }));
    await waitFor(() => expect(stores.inbox.unread()).toBe(2));
    expect([1, 2].map((n) => stores.inbox.get(alert(BUSY, n, now).id)?.read)).toEqual([true, true]);
    expect(within(busy).queryByRole('button', { name: 'Mark these read' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Mark the alert “Sent 3 STX” read' }));
    await waitFor(() => expect(stores.inbox.get(alert(QUIET, 3, now).id)?.read).toBe(true));
    expect(stores.inbox.get(alert(QUIET, 4, now).id)?.read).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete the alert “Sent 4 STX”' }));
    await waitFor(() => expect(stores.inbox.get(alert(QUIET, 4, now).id)).toBeUndefined());
  });
});
