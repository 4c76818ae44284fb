import { act, screen, waitFor } from '@testing-library/react';
import { c32address } from 'c32check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toasts } from '../../src/app/toasts.ts';
import type { NotificationContent } from '../../src/domain/text/notification-content.ts';
import { openAddSheet } from './home-actions.ts';
import { renderApp } from './render-app.tsx';

const ME = c32address(22, 'c3'.repeat(20));

const alert = (tag: string, title: string, path: string): NotificationContent => ({
  title,
  body: 'Savings',
  tag,
  renotify: false,
  data: { ids: [tag], path, summary: null },
});

describe('in-app alerts', () => {
  afterEach(() => act(() => toasts.dismiss()));

  it('shows one toast at a time: the newest alert in its words, "+N more" leading to the others', async () => {
    const { user } = await renderApp();
    act(() => toasts.show(alert('a', 'Received 84 STX — pending', `/address/${ME}#tx-1`)));
    expect(await screen.findByRole('link', { name: /Received 84 STX — pending/ })).toBeDefined();
    act(() => toasts.show(alert('a', 'Received 84 STX', `/address/${ME}#tx-1`)));
    expect(document.querySelectorAll('.toast')).toHaveLength(1);
    expect(screen.queryByText(/pending/)).toBeNull();

    act(() => toasts.show(alert('b', 'Sent 2 STX', `/address/${ME}#tx-2`)));
    act(() => toasts.show(alert('c', 'Sent 3 STX', `/address/${ME}#tx-3`)));
    expect(document.querySelectorAll('.toast')).toHaveLength(1);
    expect(screen.getByRole('link', { name: /^Sent 3 STX/ })).toBeDefined();
    await user.click(screen.getByRole('link', { name: '+2 more' }));
    expect(window.location.pathname).toBe(`/address/${ME}`);
    expect(document.querySelectorAll('.toast')).toHaveLength(0);
  });

  it('fades a while after the last alert of a burst, not after the first', async () => {
    await renderApp();
    // Only the toast's own timer is faked: IndexedDB (fake-indexeddb) keeps its real scheduling.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      act(() => toasts.show(alert('a', 'Received 1 STX', '/')));
      act(() => vi.advanceTimersByTime(6000));
      act(() => toasts.show(alert('b', 'Received 2 STX', '/')));
      act(() => vi.advanceTimersByTime(6000));
      expect(screen.getByText('Received 2 STX')).toBeDefined();
      expect(screen.getByText('+1 more')).toBeDefined();
      act(() => vi.advanceTimersByTime(3000));
      expect(document.querySelectorAll('.toast')).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never falls silent under steady activity: each alert is shown, and a burst starts afresh after 20 s', async () => {
    await renderApp();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      // An alert every 3 s: each one is on screen at once, in its words.
      for (let n = 0; n < 7; n++) {
        act(() => toasts.show(alert(`t${n}`, `Received ${n} STX`, '/')));
        expect(screen.getByText(`Received ${n} STX`)).toBeDefined();
        act(() => vi.advanceTimersByTime(3000));
      }
      expect(screen.getByText('+6 more')).toBeDefined();
      // 21 s after the first: the next one starts a toast of its own rather than counting the whole session.
      act(() => toasts.show(alert('later', 'Received 9 STX', '/')));
      expect(screen.getByText('Received 9 STX')).toBeDefined();
      expect(screen.queryByText(/more$/)).toBeNull();
      act(() => vi.advanceTimersByTime(8000));
      expect(document.querySelectorAll('.toast')).toHaveLength(0);
      act(() => toasts.show(alert('after', 'Received 10 STX', '/')));
      expect(screen.getByText('Received 10 STX')).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stays while pointed at, its words still the newest, and a screen reader hears the newest, not each one', async () => {
    await renderApp();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const said = () => document.querySelector('.toast-said[role="status"][aria-live="polite"]')?.textContent;
      act(() => toasts.show(alert('a', 'Received 1 STX', '/')));
      expect(said()).toBe('Received 1 STX. Savings');
      act(() => toasts.hold());
      for (let n = 2; n <= 5; n++) act(() => toasts.show(alert(`t${n}`, `Received ${n} STX`, '/')));
      expect(screen.getByText('Received 5 STX')).toBeDefined();
      expect(said()).toBe('');
      act(() => vi.advanceTimersByTime(60_000));
      expect(said()).toBe('Received 5 STX. Savings. And 4 more');
      expect(document.querySelectorAll('.toast')).toHaveLength(1);
      // Only the spoken line is in the live region: the words on screen change with each alert.
      expect(document.querySelector('.toast')!.closest('[aria-live]')).toBeNull();
      act(() => toasts.release());
      act(() => vi.advanceTimersByTime(8000));
      expect(document.querySelectorAll('.toast')).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('scanning a QR code', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers the camera where the browser reads barcodes, and fills the address from a payment URI', async () => {
    const stop = vi.fn();
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        detect = async () => [{ rawValue: `stacks:${ME}?amount=10` }];
      },
    );
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: async () => ({ getTracks: () => [{ stop }] }) },
    });
    try {
      const { user } = await renderApp();
      await openAddSheet(user);
      await user.click(screen.getByRole('button', { name: 'Scan a QR code' }));
      // The scanner reads frames as they come: on a busy machine the first may take more than waitFor's default second.
      await waitFor(() => expect(screen.getByLabelText(/Address/)).toHaveProperty('value', ME), { timeout: 10_000 });
      expect(await screen.findByText('Mainnet · single-sig', {}, { timeout: 10_000 })).toBeDefined();
      // The camera is let go once the code is read: right after, on its own turn.
      await waitFor(() => expect(stop).toHaveBeenCalled(), { timeout: 10_000 });
    } finally {
      delete (navigator as unknown as Record<string, unknown>)['mediaDevices'];
    }
  });

  it('shows no scan button where the browser cannot read barcodes', async () => {
    const { user } = await renderApp();
    await openAddSheet(user);
    expect(screen.queryByRole('button', { name: 'Scan a QR code' })).toBeNull();
  });
});
