import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStore } from '../../src/domain/create-store.ts';

describe('createStore, the one observable store', () => {
  it('tells each listener of every new value, once, and of nothing else', () => {
    const store = createStore({ count: 0 });
    const heard: number[] = [];
    store.subscribe(() => heard.push(store.get().count));
    const same = store.get();
    store.set(same);
    store.set({ count: 1 });
    store.update((value) => ({ count: value.count + 1 }));
    store.update((value) => value);
    expect(heard).toEqual([1, 2]);
    expect(store.get()).toEqual({ count: 2 });
  });

  it('stops telling a listener once it unsubscribed, even from inside a notification', () => {
    const store = createStore(0);
    const calls = { first: 0, second: 0 };
    const stopFirst = store.subscribe(() => {
      calls.first += 1;
      stopFirst();
    });
    store.subscribe(() => (calls.second += 1));
    store.set(1);
    store.set(2);
    stopFirst();
    expect(calls).toEqual({ first: 1, second: 2 });
  });

  it('runs its source only while someone follows it, and reads the value the source sets', () => {
    const log: string[] = [];
    let tick: ((next: number) => void) | null = null;
    const clock = createStore(0, (set) => {
      log.push('start');
      tick = set;
      set(100);
      return () => log.push('stop');
    });
    expect(log).toEqual([]);
    const seen: number[] = [];
    const stopA = clock.subscribe(() => seen.push(clock.get()));
    const stopB = clock.subscribe(() => undefined);
    tick!(200);
    stopA();
    stopA();
    expect(log).toEqual(['start']);
    stopB();
    expect(log).toEqual(['start', 'stop']);
    clock.subscribe(() => undefined);
    expect(log).toEqual(['start', 'stop', 'start']);
    expect(seen).toEqual([100, 200]);
  });

  it('matches a model over any sequence of sets, subscriptions and unsubscriptions', () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), value: fc.integer({ min: 0, max: 3 }) }),
      fc.record({ kind: fc.constant('subscribe' as const) }),
      fc.record({ kind: fc.constant('unsubscribe' as const), which: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        let running = 0;
        let starts = 0;
        const store = createStore(0, () => {
          running += 1;
          starts += 1;
          return () => (running -= 1);
        });
        const listeners: { heard: number; expected: number; stop: (() => void) | null }[] = [];
        let model = 0;
        for (const op of operations) {
          if (op.kind === 'set') {
            if (op.value !== model) for (const listener of listeners) if (listener.stop) listener.expected += 1;
            model = op.value;
            store.set(op.value);
          } else if (op.kind === 'subscribe') {
            const listener = { heard: 0, expected: 0, stop: null as (() => void) | null };
            listener.stop = store.subscribe(() => (listener.heard += 1));
            listeners.push(listener);
          } else if (listeners.length > 0) {
            const listener = listeners[op.which % listeners.length]!;
            listener.stop?.();
            listener.stop = null;
          }
          const following = listeners.filter((listener) => listener.stop).length;
          expect(running).toBe(following > 0 ? 1 : 0);
        }
        expect(store.get()).toBe(model);
        for (const listener of listeners) expect(listener.heard).toBe(listener.expected);
        expect(starts).toBeLessThanOrEqual(operations.filter((op) => op.kind === 'subscribe').length);
      }),
    );
  });
});
