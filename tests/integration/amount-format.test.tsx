import { screen, within } from '@testing-library/react';
import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import { alertTitle } from '../../src/domain/text/alert-text.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { addAddress } from './home-actions.ts';
import { renderApp } from './render-app.tsx';

const ME = c32address(26, 'a7'.repeat(20));
const PEER = c32address(26, 'b8'.repeat(20));

/** 84 STX from a peer, who paid 0.0003 STX in fees: the movement is known. */
const received: Activity = {
  txId: `0x${'84'.repeat(32)}`,
  status: 'success',
  kind: 'token_transfer',
  counterparty: PEER,
  stxNet: 84_000_000n,
  fee: 300n,
  memo: null,
  contractCall: null,
  blockHeight: 120,
  time: Math.floor(Date.now() / 1000) - 60,
  sender: PEER,
  movements: [
    { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: PEER, recipient: ME, amount: 84_000_000n },
  ],
};

describe('amounts', () => {
  it('read the same in the list, the totals, the balance card, the activity, its detail and its alert', async () => {
    const app = await renderApp();
    await addAddress(app.user, ME, 'Savings');
    app.stores.book.update(ME, 'testnet', (snapshot) => ({
      ...snapshot,
      stx: { total: 100_089_000_000n, available: 100_089_000_000n, locked: 0n, unlockBurnHeight: null },
      recent: [received],
      syncedAt: Date.now(),
    }));

    const row = screen.getByRole('link', { name: /^Savings/ }).closest('li')!;
    expect(await within(row).findByText('100,089.00 STX')).toBeDefined();
    // One address: its total is its balance, in the same words (not shortened to "100.08K STX").
    expect(within(screen.getByRole('definition')).getByText('100,089.00 STX')).toBeDefined();

    await app.user.click(screen.getByRole('link', { name: /^Savings/ }));
    const card = await screen.findByRole('region', { name: 'Available' });
    expect(within(card).getAllByText('100,089.00 STX')).toHaveLength(2); // available and total

    const activity = screen.getByRole('region', { name: 'Activity' });
    const title = within(activity).getByRole('button', { name: 'Received 84.00 STX' });
    await app.user.click(title);
    expect(within(activity).getByText('0.0003 STX')).toBeDefined();
    expect(within(activity).getByText(/^84\.00 STX from /)).toBeDefined();

    const item = {
      id: alertId('testnet', ME, received.txId),
      network: 'testnet' as const,
      principal: ME,
      subject: received.txId,
      phase: 'confirmed' as const,
      activity: received,
      amount: null,
      at: Date.now(),
      catchUp: false,
    };
    const text = { label: () => 'Savings', nameOf: () => null, token: () => undefined };
    expect(alertTitle(item, text)).toBe(title.textContent);
  });
});
