import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { undoOffer } from '../../src/app/undo-offer.ts';
import { UNDO_WINDOW_MS } from '../../src/domain/watch/removal-journal.ts';
import type { Removal } from '../../src/domain/watch/watchlist.ts';
import { UndoBar } from '../../src/features/watchlist/UndoBar.tsx';

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
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stops counting down while pointed at or focused, and goes on from where it was', () => {
    const undo = vi.fn();
    undoOffer.offer({ removal, undo });
    render(<UndoBar offer={undoOffer.get()!} />);
    const bar = screen.getByRole('status');
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

  it('undoes once, and not after it expired', () => {
    const undo = vi.fn();
    undoOffer.offer({ removal, undo });
    render(<UndoBar offer={undoOffer.get()!} />);
    fireEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    expect(undoOffer.get()).toBeNull();
    expect(undoOffer.take(removal)).toBe(false);
    expect(undo).toHaveBeenCalledTimes(1);
  });
});
