import { act, fireEvent, screen } from '@testing-library/react';
import { createStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { undoOffer } from '../../src/app/undo-offer.ts';
import { UNDO_WINDOW_MS } from '../../src/domain/watch/removal-journal.ts';
import type { Removal } from '../../src/domain/watch/watchlist.ts';
import { parsePrincipal } from '../../src/domain/address/address.ts';
import { NameBook } from '../../src/store/name-book.ts';
import type { WatchlistController } from '../../src/store/watchlist-state.ts';
import { openRowActions } from './home-actions.ts';
import { renderApp } from './render-app.tsx';

const removal: Removal = {
  entry: {
    principal: 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4',
    network: 'testnet',
    kind: 'single-sig',
    label: 'Treasury',
    addedAt: 0,
  },
  index: 0,
};

describe('the Undo after a removal', () => {
  // The whole app, so that the bar is drawn where it lives (the bottom stack), with the stores it reads.
  beforeEach(async () => {
    await renderApp();
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('stops counting down while pointed at or focused, and goes on from where it was', () => {
    const undo = vi.fn();
    act(() => undoOffer.offer({ removal, undo }));
    const bar = screen.getByText(/^Removed/).closest('.undo-bar')!;
    act(() => vi.advanceTimersByTime(UNDO_WINDOW_MS / 2));
    fireEvent.pointerEnter(bar);
    act(() => vi.advanceTimersByTime(UNDO_WINDOW_MS * 3));
    expect(undoOffer.get()?.removal).toBe(removal);
    fireEvent.pointerLeave(bar);
    fireEvent.focus(screen.getByRole('button', { name: 'Undo' }));
    act(() => vi.advanceTimersByTime(UNDO_WINDOW_MS * 3));
    expect(undoOffer.get()?.removal).toBe(removal);
    fireEvent.blur(screen.getByRole('button', { name: 'Undo' }));
    act(() => vi.advanceTimersByTime(UNDO_WINDOW_MS / 2 - 100));
    expect(undoOffer.get()?.removal).toBe(removal);
    act(() => vi.advanceTimersByTime(200));
    expect(undoOffer.get()).toBeNull();
    expect(undo).not.toHaveBeenCalled();
  });

  it('keeps counting stopped while the Undo is focused, though the pointer came and went', () => {
    act(() => undoOffer.offer({ removal, undo: vi.fn() }));
    const bar = screen.getByText(/^Removed/).closest('.undo-bar')!;
    const button = screen.getByRole('button', { name: 'Undo' });
    fireEvent.focus(button);
    fireEvent.pointerEnter(bar);
    fireEvent.pointerLeave(bar);
    act(() => vi.advanceTimersByTime(UNDO_WINDOW_MS * 3));
    expect(undoOffer.get()?.removal).toBe(removal);
    fireEvent.blur(button);
    act(() => vi.advanceTimersByTime(UNDO_WINDOW_MS + 100));
    expect(undoOffer.get()).toBeNull();
  });

  it('undoes once, and not after it expired', () => {
    const undo = vi.fn();
    act(() => undoOffer.offer({ removal, undo }));
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    expect(undoOffer.get()).toBeNull();
    expect(undoOffer.take(removal)).toBe(false);
    expect(undo).toHaveBeenCalledTimes(1);
  });
});

describe('the Undo names the address as every screen does', () => {
  const UNLABELLED = 'ST2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKQYAC0RQ';
  const watch = (controller: WatchlistController, address: string) => {
    const parsed = parsePrincipal(address);
    if (!parsed.ok) throw new Error(`${address} is no address`);
    act(() => void controller.add(parsed.value, ''));
  };

  it('by a BNS name learned since it was added, where it has no label and was added by none', async () => {
    let names: NameBook | undefined;
    const { user, controller } = await renderApp('/', undefined, () => {
      names = new NameBook(createStore('stacks-watch:names:undo-bar', 'names'));
      return { names };
    });
    watch(controller, UNLABELLED);
    // Learned by the engine afterwards (the address was a party to a watched one's transaction).
    await act(() => names!.add(UNLABELLED, 'treasury.btc'));
    // The list names it so already: the Undo must too.
    await openRowActions(user, 'treasury.btc');
    await user.click(screen.getByRole('button', { name: 'Remove treasury.btc' }));
    expect(screen.getByText(/^Removed/).textContent).toBe('Removed “treasury.btc”.');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
  });

  it('by its short address where nothing names it', async () => {
    const { user, controller } = await renderApp();
    watch(controller, UNLABELLED);
    await openRowActions(user, UNLABELLED);
    await user.click(screen.getByRole('button', { name: `Remove ${UNLABELLED}` }));
    expect(screen.getByText(/^Removed/).textContent).toBe('Removed ST2J6Z…C0RQ.');
  });
});
