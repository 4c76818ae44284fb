import { useSyncExternalStore } from 'react';
import type { Readable } from '../domain/create-store.ts';

const ABSENT: Readable<undefined> = { get: () => undefined, subscribe: () => () => undefined };

/**
 * A store's value (or the part `select` picks) in a component, which re-renders when it changes. An absent store
 * (one the app runs without) reads as undefined. `select` must return a value already in the store, or a primitive,
 * never a new object each time.
 */
export function useStore<T>(store: Readable<T>): T;
export function useStore<T>(store: Readable<T> | null | undefined): T | undefined;
export function useStore<T, S>(store: Readable<T>, select: (value: T) => S): S;
export function useStore<T, S>(store: Readable<T> | null | undefined, select?: (value: T) => S): T | S | undefined {
  const source: Readable<T | undefined> = store ?? ABSENT;
  const read = (): T | S | undefined => {
    const value = source.get();
    return select && store ? select(value as T) : value;
  };
  return useSyncExternalStore(source.subscribe, read);
}
