import { createStore } from '../domain/create-store.ts';
import { useStore } from './use-store.ts';

const TICK_MS = 30_000;

/** Ticks only while a component shows a time. */
const clock = createStore(Date.now(), (set) => {
  set(Date.now());
  const timer = setInterval(() => set(Date.now()), TICK_MS);
  return () => clearInterval(timer);
});

/** The current time, refreshed every 30 s: enough for "5 min ago" to stay true. */
export const useNow = (): number => useStore(clock);
