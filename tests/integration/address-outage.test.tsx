import { act, screen, within } from '@testing-library/react';
import { c32address } from 'c32check';
import { afterEach, describe, expect, it } from 'vitest';
import { statusBoard } from '../../src/app/connection-status.ts';
import type { StakingPosition } from '../../src/domain/state/staking.ts';
import { addAddress } from './home-actions.ts';
import { renderApp } from './render-app.tsx';

const STAKER = c32address(26, 'c3'.repeat(20));
const HOUR = 3_600_000;
const STX = 1_000_000n;

/** 60,000 STX staked until Bitcoin block 238, read when the chain was at 220 (eighteen blocks, three hours before). */
const staked: StakingPosition = {
  staked: 60_000n * STX,
  rewards: { accrued: 120_000n, claimed: 0n, claimable: 120_000n },
  bonds: [],
  clock: { cycle: 143, startBurnHeight: 200, length: 20 },
  burnHeight: 220,
  lockBurnHeight: 205,
  unlockBurnHeight: 238,
  locked: 60_000n * STX,
  rewardsPaused: false,
};

afterEach(() => act(() => statusBoard.set('testnet', null)));

describe('the address page while the node cannot be reached', () => {
  it('has the balance and staking cards tell the same lock, and says once above them how old their figures are', async () => {
    const app = await renderApp();
    await addAddress(app.user, STAKER, 'Stacker');
    // What the device kept from its last read, three hours ago; the app was opened since, and the node never answered:
    // nobody knows the chain's height now.
    app.stores.book.update(STAKER, 'testnet', (snapshot) => ({
      ...snapshot,
      stx: { total: 70_000n * STX, available: 10_000n * STX, locked: 60_000n * STX, unlockBurnHeight: 238 },
      staking: staked,
      syncedAt: Date.now() - 3 * HOUR,
    }));
    act(() =>
      statusBoard.set('testnet', {
        node: 'devnet',
        feed: 'connecting',
        connectedOnce: false,
        lastEventAt: null,
        tip: null,
        syncing: false,
        problem: 'The node did not answer',
        problemSince: Date.now() - HOUR,
      }),
    );
    await app.user.click(screen.getByRole('link', { name: /^Stacker/ }));
    const balance = await screen.findByRole('region', { name: 'Available' });
    const staking = screen.getByRole('region', { name: 'Staking' });

    expect(within(balance).getByText('unlocks at Bitcoin block 238')).toBeDefined();
    // Not "unlocks in about 3 hours": counted from a height three hours old, the lock may be over by now.
    expect(within(staking).getByText('until cycle 144 · unlocks at Bitcoin block 238')).toBeDefined();
    expect(staking.textContent).not.toMatch(/unlocks in/);

    // How old the figures are is said once, above the cards it holds for: not under each card, and not after the
    // first figure a phone shows.
    const stale = screen.getAllByText(/^Last updated/);
    expect(stale.map((line) => line.textContent)).toEqual(['Last updated 3 h ago — node unreachable.']);
    expect(stale[0]!.compareDocumentPosition(balance) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(within(balance).queryByText(/^Last updated/)).toBeNull();
    expect(within(staking).queryByText(/^Last updated/)).toBeNull();
  });
});
