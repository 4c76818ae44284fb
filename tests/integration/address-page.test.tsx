import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { statusBoard } from '../../src/app/connection-status.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { addAddress } from './home-actions.ts';
import { renderApp } from './render-app.tsx';

const ME = c32address(26, 'a1'.repeat(20));
const PEER = c32address(26, 'b2'.repeat(20));
const DAY = 86_400;

const received = (n: number, ago: number, micro: bigint, now: number): Activity => ({
  txId: `0x${n.toString(16).padStart(64, '0')}`,
  status: 'success',
  kind: 'token_transfer',
  counterparty: PEER,
  stxNet: micro,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight: 100 + n,
  time: now - ago,
});

async function watchedWithHistory() {
  const app = await renderApp();
  await addAddress(app.user, ME, 'Savings');
  // Dated from now, not from when the file loaded: on a busy machine the app takes a while to render.
  const now = Math.floor(Date.now() / 1000);
  app.stores.book.update(ME, 'testnet', (snapshot) => ({
    ...snapshot,
    stx: { total: 7_500_000n, available: 7_500_000n, locked: 0n, unlockBurnHeight: null },
    recent: [
      received(3, 5 * 60, 2_500_000n, now),
      received(2, 3 * DAY, 3_000_000n, now),
      received(1, 40 * DAY, 2_000_000n, now),
    ],
    syncedAt: Date.now(),
  }));
  await app.user.click(screen.getByRole('link', { name: /^Savings/ }));
  await screen.findByRole('heading', { level: 1, name: 'Savings' });
  return app;
}

describe('the address page', () => {
  it('groups the activity by day with relative times, the exact time on hover', async () => {
    await watchedWithHistory();
    const activity = screen.getByRole('region', { name: 'Activity' });
    // The newest is "Yesterday" for five minutes after midnight.
    expect(
      within(activity)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual([
      expect.stringMatching(/^(Today|Yesterday)$/),
      expect.stringMatching(/^\w+day\b/),
      expect.stringMatching(/\d/),
    ]);
    // Five minutes ago when stored: minutes however far the page's clock (refreshed every 30 s) lags the store's.
    const time = within(activity).getByText(/^\d+ min ago$/);
    expect(time.getAttribute('title')).toMatch(/\d{2}:\d{2}:\d{2}/);
    fireEvent.contextMenu(time);
    expect(time.textContent).toBe(time.getAttribute('title'));
  });

  it('draws the balance with labelled axes, a period choice and a tooltip the keyboard can move', async () => {
    const app = await watchedWithHistory();
    const { user } = app;
    const chart = await screen.findByRole('img', { name: /^STX balance over the last 3 transactions/ });
    const labels = [...chart.querySelectorAll('text')].map((text) => text.textContent);
    expect(labels).toEqual(expect.arrayContaining(['0', '5', '10']));
    const times = [...chart.querySelectorAll('text.chart-axis')].map((text) => text.textContent);
    expect(new Set(times).size).toBe(times.length);
    const history = screen.getByRole('region', { name: 'Balance history' });
    chart.focus();
    await user.keyboard('{End}');
    expect(within(history).getByText('7.50 STX')).toBeDefined();
    await user.keyboard('{Home}');
    expect(within(history).getByText('0.00 STX')).toBeDefined();

    await user.click(screen.getByRole('radio', { name: '7 days' }));
    const week = screen.getByRole('img', { name: /STX balance/ });
    await user.click(week);
    week.focus();
    await user.keyboard('{Home}');
    // The week starts with the balance held then: the 40-day-old transfer, not zero.
    expect(within(history).getByText('2.00 STX')).toBeDefined();

    // A history of a few seconds: the time axis names its minute once, not three times.
    act(() => {
      app.stores.book.update(ME, 'testnet', (snapshot) => ({
        ...snapshot,
        recent: [received(4, 5, 1_000_000n, Math.floor(Date.now() / 1000))],
      }));
    });
    await user.click(screen.getByRole('radio', { name: 'All known' }));
    const axis = [...screen.getByRole('img', { name: /STX balance/ }).querySelectorAll('text.chart-axis')];
    expect(axis.length).toBeGreaterThan(0);
    expect(new Set(axis.map((text) => text.textContent)).size).toBe(axis.length);
  });

  it('tells an address not read yet from one the node knows no transaction for', async () => {
    const app = await renderApp();
    await addAddress(app.user, ME, 'Fresh');
    await app.user.click(screen.getByRole('link', { name: /^Fresh/ }));
    await screen.findByRole('heading', { level: 1, name: 'Fresh' });
    const activity = screen.getByRole('region', { name: 'Activity' });
    const offer = () => within(activity).queryByRole('button', { name: /^Full history/ });
    expect(within(activity).getByText('No transactions known yet.')).toBeDefined();
    act(() => app.stores.book.update(ME, 'testnet', (snapshot) => ({ ...snapshot, syncedAt: Date.now() })));
    await waitFor(() =>
      expect(within(activity).getByText('No transactions: the node knows none for this address yet.')).toBeDefined(),
    );
    expect(within(activity).queryByText('No transactions known yet.')).toBeNull();
    // What the device kept of its history (an earlier node's) can still be opened.
    expect(offer()).not.toBeNull();
  });

  it('says offline that tokens were never loaded, instead of loading for ever', async () => {
    await watchedWithHistory();
    expect(screen.getByText('Loading tokens and NFTs…')).toBeDefined();
    const online = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      act(() => void window.dispatchEvent(new Event('offline')));
      await waitFor(() => expect(screen.getByText(/never loaded on this device/)).toBeDefined());
    } finally {
      delete (navigator as unknown as Record<string, unknown>)['onLine'];
      Object.defineProperty(Navigator.prototype, 'onLine', online);
    }
  });

  it('says when stacked STX unlock in a person’s words, with the Bitcoin block beside them', async () => {
    const app = await renderApp();
    await addAddress(app.user, ME, 'Stacker');
    app.stores.book.update(ME, 'testnet', (snapshot) => ({
      ...snapshot,
      stx: { total: 70_000_000_000n, available: 10_000_000_000n, locked: 60_000_000_000n, unlockBurnHeight: 238 },
      syncedAt: Date.now(),
    }));
    await app.user.click(screen.getByRole('link', { name: /^Stacker/ }));
    const card = await screen.findByRole('region', { name: 'Available' });
    expect(within(card).getByText('unlocks at Bitcoin block 238')).toBeDefined();

    // Once the node tells the current Bitcoin height, the wait is told in hours (ten minutes a block).
    const tip = { height: 500, burnHeight: 220 };
    act(() =>
      statusBoard.set('testnet', {
        node: 'devnet',
        feed: 'live',
        connectedOnce: true,
        lastEventAt: null,
        tip,
        syncing: false,
        problem: null,
      }),
    );
    try {
      expect(within(card).getByText('unlocks in about 3 hours (Bitcoin block 238)')).toBeDefined();
      expect(card.textContent).not.toMatch(/burn/i);
    } finally {
      act(() => statusBoard.set('testnet', null));
    }
  });
});
