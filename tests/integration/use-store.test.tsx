import { act, render, screen } from '@testing-library/react';
import { createStore as createIdbStore } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { AppProviders, type AppStores } from '../../src/app/AppProviders.tsx';
import { useSnapshot } from '../../src/app/snapshot-context.tsx';
import { useNow } from '../../src/app/use-now.ts';
import { useStore } from '../../src/app/use-store.ts';
import { createStore, type Readable } from '../../src/domain/create-store.ts';
import { SnapshotBook } from '../../src/store/snapshot-book.ts';

describe('useStore, the one hook over the stores', () => {
  it('re-renders when the part it selects changes, and not for the rest', () => {
    const store = createStore({ unread: 0, entries: ['a'] });
    let renders = 0;
    function Count() {
      renders += 1;
      return <output>{useStore(store, (value) => value.unread)}</output>;
    }
    render(<Count />);
    const before = renders;
    act(() => store.update((value) => ({ ...value, entries: [...value.entries, 'b'] })));
    expect(renders).toBe(before);
    act(() => store.update((value) => ({ ...value, unread: 3 })));
    expect(screen.getByRole('status').textContent).toBe('3');
    expect(renders).toBe(before + 1);
  });

  it('reads an absent store (one the app runs without) as undefined', () => {
    const absent: Readable<number> | undefined = undefined;
    function Absent() {
      return <output>{String(useStore(absent))}</output>;
    }
    render(<Absent />);
    expect(screen.getByRole('status').textContent).toBe('undefined');
  });

  it('re-renders a snapshot reader only when its own principal changes, through the one provider', async () => {
    const book = new SnapshotBook(createIdbStore('use-store-snapshots', 'by-principal'));
    let renders = 0;
    function Synced({ principal }: { principal: string }) {
      renders += 1;
      return <output>{String(useSnapshot(principal)?.syncedAt ?? 'never')}</output>;
    }
    render(
      <AppProviders stores={{ book } as unknown as AppStores}>
        <Synced principal="A" />
      </AppProviders>,
    );
    const before = renders;
    act(() => void book.update('B', 'testnet', (snapshot) => ({ ...snapshot, syncedAt: 5 })));
    expect(renders).toBe(before);
    act(() => void book.update('A', 'testnet', (snapshot) => ({ ...snapshot, syncedAt: 7 })));
    expect(screen.getByRole('status').textContent).toBe('7');
    expect(renders).toBe(before + 1);
    await book.saved();
  });

  it('leaves every reader of the first-paint stores alone when the relay and the privacy record arrive after it', async () => {
    // Each row of the watch list reads its stores so: with one context for all, their arrival drew a thousand rows
    // again at start-up (issue 36, item 7).
    const book = new SnapshotBook(createIdbStore('use-store-later', 'by-principal'));
    const stores = { book } as unknown as AppStores;
    let renders = 0;
    function Synced() {
      renders += 1;
      return <output>{String(useSnapshot('A')?.syncedAt ?? 'never')}</output>;
    }
    const reader = <Synced />;
    const { rerender } = render(<AppProviders stores={stores}>{reader}</AppProviders>);
    const before = renders;
    const later = { relay: {}, privacy: {} } as unknown as Pick<AppStores, 'relay' | 'privacy'>;
    rerender(<AppProviders stores={{ ...stores, ...later }}>{reader}</AppProviders>);
    expect(renders).toBe(before);
    act(() => void book.update('A', 'testnet', (snapshot) => ({ ...snapshot, syncedAt: 9 })));
    expect(screen.getByRole('status').textContent).toBe('9');
    expect(renders).toBe(before + 1);
    await book.saved();
  });

  it('starts the clock without rendering every time shown a second time, and ticks while one is shown', () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      // Time passed since the clock last ticked: a clock that read it on starting would change under the rows.
      vi.setSystemTime(Date.now() + 60_000);
      let renders = 0;
      function Time() {
        renders += 1;
        return <time>{useNow()}</time>;
      }
      const view = render(
        <>
          <Time />
          <Time />
          <Time />
        </>,
      );
      expect(renders).toBe(3);
      act(() => vi.advanceTimersByTime(30_000));
      expect(renders).toBe(6);
      view.unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('says what is missing when a screen reads stores outside the provider', () => {
    function Orphan() {
      useSnapshot('A');
      return null;
    }
    const quiet = console.error;
    console.error = () => undefined;
    try {
      expect(() => render(<Orphan />)).toThrow('inside <AppProviders>');
    } finally {
      console.error = quiet;
    }
  });
});
