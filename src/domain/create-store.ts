/** A value that can be read now and followed: what `useStore` (app/use-store.ts) attaches React to. */
export interface Readable<T> {
  readonly get: () => T;
  readonly subscribe: (listener: () => void) => () => void;
}

export interface Store<T> extends Readable<T> {
  /** Replaces the value; listeners hear of it only when it is a different one (`Object.is`). */
  readonly set: (next: T) => void;
  readonly update: (change: (current: T) => T) => void;
}

/**
 * The one observable store of the app: the page's state lives in these, framework-free, so that the engine's tab,
 * the screens and tests read it alike. `start` runs when the first listener arrives and the function it returns when
 * the last one leaves: a source (a clock) runs only while someone follows it.
 */
export function createStore<T>(initial: T, start?: (set: (next: T) => void) => () => void): Store<T> {
  let value = initial;
  let stop: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const set = (next: T): void => {
    if (Object.is(next, value)) return;
    value = next;
    listeners.forEach((listener) => listener());
  };
  return {
    get: () => value,
    set,
    update: (change) => set(change(value)),
    subscribe(listener) {
      listeners.add(listener);
      if (start && listeners.size === 1) stop = start(set);
      return () => {
        if (!listeners.delete(listener) || listeners.size > 0) return;
        stop?.();
        stop = null;
      };
    },
  };
}
