import { screen, waitFor } from '@testing-library/react';
import { c32address } from 'c32check';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { shareFragments } from '../../src/domain/watch/share-code.ts';
import { renderApp } from './render-app.tsx';

const address = (n: number) => c32address(n % 3 ? 22 : 26, n.toString(16).padStart(40, 'e'));
const LIST = Array.from({ length: 24 }, (_, n) => ({
  principal: address(n),
  network: n % 3 ? ('mainnet' as const) : ('testnet' as const),
  label: `Scanned ${n}`,
}));
const DUST = { ...DEFAULT_RULES, minimums: { STX: 700n } };

describe('adding from another device with the camera', () => {
  it('collects a sequence of codes in any order, says which are missing, previews and merges', async () => {
    const links = shareFragments(
      LIST.map((entry, n) => ({
        entry: { ...entry, kind: 'single-sig' as const, addedAt: 0 },
        rules: n === 5 ? DUST : null,
      })),
    ).map((fragment) => `https://watch.example/receive#${fragment}`);
    expect(links.length).toBeGreaterThanOrEqual(3);
    // What the camera sees: the last code (twice), an address code that is not a list, then the others backwards.
    const seen = [links.at(-1)!, links.at(-1)!, `stacks:${address(99)}`, ...links.slice(0, -1).reverse()];
    let shown = 0;
    const stop = vi.fn();
    vi.stubGlobal(
      'BarcodeDetector',
      class {
        detect = async () => [{ rawValue: seen[Math.min(shown++, seen.length - 1)]! }];
      },
    );
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: async () => ({ getTracks: () => [{ stop }] }) },
    });
    try {
      const { user, controller, stores } = await renderApp('/receive');
      await user.click(await screen.findByRole('button', { name: 'Scan a code' }));
      await screen.findByText(`1 of ${links.length} codes read.`);
      await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/not a Stacks Watch list link/));
      await screen.findByRole('heading', { name: '24 addresses to add' }, { timeout: 10_000 });
      await waitFor(() => expect(stop).toHaveBeenCalled());
      await user.click(screen.getByRole('button', { name: 'Add to my list' }));
      await screen.findByText('Added 24 addresses (1 with alert rules).');
      const state = controller.getState();
      expect(
        state.status === 'ready' &&
          state.entries.map(({ principal, network, label }) => ({ principal, network, label })),
      ).toEqual(LIST);
      expect(stores.alertSettings.get().rules).toEqual({ [`mainnet:${address(5)}`]: DUST });
    } finally {
      vi.unstubAllGlobals();
      delete (navigator as unknown as Record<string, unknown>)['mediaDevices'];
    }
  });
});
