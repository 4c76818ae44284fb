import { screen, within } from '@testing-library/react';
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { addAddress } from './home-actions.ts';
import { renderApp } from './render-app.tsx';

const SAVINGS = c32address(26, 'd4'.repeat(20));
const SPENDING = c32address(26, 'e5'.repeat(20));
const COLD = c32address(22, 'f6'.repeat(20));

type App = Awaited<ReturnType<typeof renderApp>>;

const marks = (element: HTMLElement) => within(element).queryAllByText(/^(Testnet|Mainnet)$/);
const row = (name: string) => screen.getByRole('link', { name: new RegExp(`^${name}`) }).closest('li')!;

const alertOn = (principal: string, network: 'mainnet' | 'testnet'): InboxEntry => ({
  id: `${network}:${principal}:0x1`,
  network,
  principal,
  txId: '0x1',
  phase: 'confirmed',
  title: 'Received 1 STX',
  body: 'From someone',
  path: `/address/${principal}#tx-0x1`,
  firstAt: Date.now(),
  at: Date.now(),
  read: false,
  deliveries: [],
  undelivered: false,
});

async function openAddress(app: App, name: string) {
  await app.user.click(screen.getByRole('link', { name: new RegExp(`^${name}`) }));
  return screen.findByRole('heading', { level: 1, name });
}

/** The inbox's rows in time order, each naming its address. */
async function openInbox(app: App, alerts: readonly InboxEntry[]) {
  await app.stores.inbox.change(new Map(alerts.map((alert) => [alert.id, () => alert])));
  await app.user.click(screen.getByRole('link', { name: /Inbox/ }));
  await screen.findByRole('heading', { level: 1, name: 'Inbox' });
  return screen.findAllByRole('listitem');
}

describe('the network mark beside an address', () => {
  it('is left out where every address is on one network: the totals name it once', async () => {
    const app = await renderApp();
    await addAddress(app.user, SAVINGS, 'Savings');
    await addAddress(app.user, SPENDING, 'Spending');
    expect(marks(row('Savings'))).toEqual([]);
    expect(marks(row('Spending'))).toEqual([]);
    expect(screen.getByText('Testnet', { selector: 'dt' })).toBeDefined();

    const heading = await openAddress(app, 'Savings');
    expect(marks(heading.closest('header')!)).toEqual([]);
    // The facts still say which network it is.
    const facts = screen.getByRole('region', { name: 'About this address' });
    expect(marks(facts).map((mark) => mark.textContent)).toEqual(['Testnet']);

    const rows = await openInbox(app, [alertOn(SAVINGS, 'testnet'), alertOn(SPENDING, 'testnet')]);
    expect(rows).toHaveLength(2);
    expect(rows.flatMap(marks)).toEqual([]);
    expect(rows.map((item) => within(item).getByRole('link').getAttribute('aria-label'))).toEqual([
      expect.stringMatching(/^Unread: (Savings|Spending): Received 1 STX, /),
      expect.stringMatching(/^Unread: (Savings|Spending): Received 1 STX, /),
    ]);
  });

  it('marks the testnet addresses once mainnet ones are watched too, and leaves mainnet, the usual one, plain', async () => {
    const app = await renderApp();
    await addAddress(app.user, SAVINGS, 'Savings');
    await addAddress(app.user, COLD, 'Cold');
    expect(marks(row('Savings')).length).toBeGreaterThan(0);
    expect(marks(row('Savings')).every((mark) => mark.textContent === 'Testnet')).toBe(true);
    expect(marks(row('Cold'))).toEqual([]);

    const heading = await openAddress(app, 'Savings');
    expect(marks(heading.closest('header')!).map((mark) => mark.textContent)).toEqual(['Testnet']);

    const rows = await openInbox(app, [alertOn(SAVINGS, 'testnet'), alertOn(COLD, 'mainnet')]);
    const marked = rows.map((item) => [
      within(item)
        .getByRole('link')
        .getAttribute('aria-label')!
        .replace(/, just now$/, ''),
      marks(item).map((mark) => mark.textContent),
    ]);
    // Beside the name in the row, and in what the row says to a screen reader.
    expect(Object.fromEntries(marked)).toEqual({
      'Unread: Savings Testnet: Received 1 STX': ['Testnet'],
      'Unread: Cold: Received 1 STX': [],
    });
    // Grouped by address, the group's heading carries it, not its rows.
    await app.user.click(screen.getByRole('checkbox', { name: 'Group by address' }));
    const groups = screen.getAllByRole('group', { name: /, \d+ alerts?$/ });
    const grouped = groups.map((group) => [group.getAttribute('aria-label'), marks(group).map((m) => m.textContent)]);
    expect(Object.fromEntries(grouped)).toEqual({ 'Savings, 1 alert': ['Testnet'], 'Cold, 1 alert': [] });
  });
});
