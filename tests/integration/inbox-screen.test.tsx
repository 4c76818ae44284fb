import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../src/domain/inbox.ts';
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

const items = () => within(screen.getByRole('list')).getAllByRole('listitem');

describe('the inbox', () => {
  it('lists the newest 200 alerts, shows older ones on request, and marks everything read', async () => {
    const { user, stores } = await renderApp('/inbox');
    await stores.inbox.change(new Map(Array.from({ length: 250 }, (_, n) => [entry(n).id, () => entry(n)])));
    // 250 records written to IndexedDB and rendered: on a busy machine this takes more than waitFor's default second.
    await waitFor(() => expect(items()).toHaveLength(200), { timeout: 10_000 });
    expect(items()[0]!.textContent).toContain('Received 249 STX');
    expect(screen.getByText('250 unread')).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'Show older alerts (50 more)' }));
    expect(items()).toHaveLength(250);
    expect(items()[249]!.textContent).toContain('Received 0 STX');
    expect(screen.queryByRole('button', { name: /Show older/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.getByText('Everything is read.')).toBeDefined(), { timeout: 10_000 });
    expect(stores.inbox.unread()).toBe(0);
    // 250 alerts written to IndexedDB, rendered, then all marked read: seconds on a loaded two-core machine.
  }, 30_000);
});
