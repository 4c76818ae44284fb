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

const rows = () => screen.queryAllByRole('listitem');
/** What happened, as each row's link draws it (its state chip apart). */
const titles = () => rows().map((item) => within(item).getByRole('link').querySelector('strong')?.textContent);
/** What each row's link says to a screen reader: its address, what happened and when. */
const names = () => rows().map((item) => within(item).getByRole('link').getAttribute('aria-label'));

describe('the inbox on a phone', () => {
  it('keeps time order by default, one list a day whose rows name their address, so a busy address cannot bury a quiet one; grouping is a choice, and folds', async () => {
    const now = Date.now();
    // The quiet address's alert is the second newest, between the busy one's.
    const alerts = [alert(BUSY, 1, now), alert(QUIET, 2, now), ...[3, 4, 5, 6].map((n) => alert(BUSY, n, now))];
    const { user, stores } = await renderApp('/inbox');
    await stores.inbox.change(new Map(alerts.map((one) => [one.id, () => one])));
    await waitFor(() => expect(titles()).toHaveLength(6));
    expect(names()).toEqual([
      'Unread: ST3TBR…J7X4: Received 1 STX, just now',
      'Unread: ST2CY5…K9AG: Sent 2 STX, just now',
      ...[3, 4, 5, 6].map((n) => `Unread: ST3TBR…J7X4: Received ${n} STX, just now`),
    ]);
    // One list for the day, no heading between its rows, each row naming its address once.
    const today = screen.getByRole('region', { name: 'Today' });
    expect(within(today).getAllByRole('list')).toHaveLength(1);
    expect(
      within(today)
        .getAllByRole('heading')
        .map((heading) => heading.textContent),
    ).toEqual(['Today']);
    expect(screen.queryAllByRole('group', { name: /, \d+ alerts?$/ })).toEqual([]);
    expect(rows().map((item) => item.querySelector('.inbox-who')?.textContent)).toEqual([
      'ST3TBR…J7X4',
      'ST2CY5…K9AG',
      ...[3, 4, 5, 6].map(() => 'ST3TBR…J7X4'),
    ]);

    await user.click(screen.getByRole('checkbox', { name: 'Group by address' }));
    const groups = () =>
      screen.getAllByRole('group', { name: /, \d+ alerts?$/ }).map((group) => group.getAttribute('aria-label'));
    expect(groups()).toEqual(['ST3TBR…J7X4, 5 alerts', 'ST2CY5…K9AG, 1 alert']);
    // Under its heading a row does not name the address again.
    expect(rows().filter((item) => item.querySelector('.inbox-who'))).toEqual([]);
    await user.click(screen.getByRole('button', { name: /ST3TBR…J7X4/, expanded: true }));
    expect(titles()).toEqual(['Sent 2 STX']);
    expect(screen.getByRole('button', { name: /ST3TBR…J7X4/, expanded: false }).textContent).toContain('5 alerts');
  });

  it('keeps a heading and one list for each day', async () => {
    const now = Date.now();
    const older = { ...alert(QUIET, 7, now), at: now - 36 * 3_600_000, firstAt: now - 36 * 3_600_000 };
    const { stores } = await renderApp('/inbox');
    await stores.inbox.change(
      new Map([alert(BUSY, 1, now), alert(QUIET, 2, now), older].map((one) => [one.id, () => one])),
    );
    await waitFor(() => expect(rows()).toHaveLength(3));
    const days = [...document.querySelectorAll<HTMLElement>('.inbox-day')].map((day) => [
      within(day).getByRole('heading', { level: 2 }).textContent,
      within(day).getAllByRole('list').length,
      within(day).getAllByRole('listitem').length,
    ]);
    expect(days).toEqual([
      ['Today', 1, 2],
      [expect.not.stringMatching(/^Today$/), 1, 1],
    ]);
  });

  it('marks a day read, or one address’s alerts when grouped, or one alert (the button a swipe right stands for), and deletes one', async () => {
    const now = Date.now();
    const alerts = [alert(BUSY, 1, now), alert(BUSY, 2, now), alert(QUIET, 3, now), alert(QUIET, 4, now)];
    const { user, stores } = await renderApp('/inbox');
    await stores.inbox.change(new Map(alerts.map((one) => [one.id, () => one])));
    await waitFor(() => expect(rows()).toHaveLength(4));
    await user.click(screen.getByRole('checkbox', { name: 'Group by address' }));
    const busy = await screen.findByRole('group', { name: 'ST3TBR…J7X4, 2 alerts' });
    await user.click(within(busy).getByRole('button', { name: 'Mark these read' }));
    await waitFor(() => expect(stores.inbox.unread()).toBe(2));
    expect([1, 2].map((n) => stores.inbox.get(alert(BUSY, n, now).id)?.read)).toEqual([true, true]);
    expect(within(busy).queryByRole('button', { name: 'Mark these read' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Group by address' }));

    await user.click(screen.getByRole('button', { name: 'Mark the alert “Sent 3 STX” read' }));
    await waitFor(() => expect(stores.inbox.get(alert(QUIET, 3, now).id)?.read).toBe(true));
    expect(stores.inbox.get(alert(QUIET, 4, now).id)?.read).toBe(false);
    // One unread row has its own ✓: the day offers no "Mark these read" for it.
    expect(screen.queryByRole('button', { name: 'Mark these read' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete the alert “Sent 4 STX”' }));
    await waitFor(() => expect(stores.inbox.get(alert(QUIET, 4, now).id)).toBeUndefined());

    // Two new ones: the day's "Mark these read" reads both, whichever address they are of.
    const more = [alert(BUSY, 5, now), alert(QUIET, 6, now)];
    await stores.inbox.change(new Map(more.map((one) => [one.id, () => one])));
    const today = screen.getByRole('region', { name: 'Today' });
    await user.click(await within(today).findByRole('button', { name: 'Mark these read' }));
    await waitFor(() => expect(stores.inbox.unread()).toBe(0));
  });
});
