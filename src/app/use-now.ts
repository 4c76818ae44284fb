import { createStore } from '../domain/create-store.ts';
import { useStore } from './use-store.ts';

const TICK_MS = 30_000;

/**
 * Ticks only while a component shows a time. Its first follower does not read the time afresh: every row of a long
 * list that rendered with the value before would have to render again.
 */
const clock = createStore(Date.now(), (set) => {
  const timer = setInterval(() => set(Date.now()), TICK_MS);
  return () => clearInterval(timer);
});

/** The current time, refreshed every 30 s: enough for "5 min ago" to stay true. */
export const useNow = (): number => useStore(clock);

/** A clock ticking every second, followed only while a countdown is on screen. */
const secondHand = createStore(Date.now(), (set) => {
  set(Date.now());
  const timer = setInterval(() => set(Date.now()), 1000);
  return () => clearInterval(timer);
});

/** The current time, every second while `counting` (a "next try in 35 s" that counts down), else every 30 s. */
export const useNowCounting = (counting: boolean): number => useStore(counting ? secondHand : clock);
