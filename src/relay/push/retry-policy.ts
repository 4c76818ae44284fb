import { backoffDelay } from '../../domain/backoff.ts';
import type { QueuedSend, RelayAlert } from '../storage/deliveries.ts';
import { pushTtl } from './payload.ts';

export interface RetryPolicy {
  /** First wait after a 5xx or a failure to reach the service; doubles each try, with jitter. */
  readonly backoffMs: number;
  /** The wait stops growing here. */
  readonly maxBackoffMs: number;
  /** How long a state is worth trying for after the relay learned it (its push TTL by default). */
  readonly lifetimeMs: (alert: RelayAlert) => number;
  readonly random: () => number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  backoffMs: 2000,
  maxBackoffMs: 10 * 60_000,
  lifetimeMs: (alert) => pushTtl(alert) * 1000,
  random: Math.random,
};

/**
 * When to try a state again after its `tries`-th failure, or null when that would be past its lifetime (then it is
 * given up, to the dead-letter list). Exponential with jitter (between half and all of the doubled wait, so a
 * thousand states refused together do not all come back in the same millisecond), never sooner than the push
 * service's Retry-After.
 */
export function nextTry(
  policy: RetryPolicy,
  alert: RelayAlert,
  tries: number,
  now: number,
  retryAfterMs: number | null,
): number | null {
  const backoff = { firstMs: policy.backoffMs, maxMs: policy.maxBackoffMs };
  const wait = Math.max(backoffDelay(backoff, tries, policy.random), retryAfterMs ?? 0);
  const at = Math.ceil(now + wait);
  return at > lifetimeEnd(policy, alert) ? null : at;
}

/** The last moment a state is worth trying (epoch ms). */
export const lifetimeEnd = (policy: RetryPolicy, alert: RelayAlert): number => alert.at + policy.lifetimeMs(alert);

/** Retry-After in seconds or as an HTTP date; null when missing or unreadable. */
export function readRetryAfter(value: string | null, now: number): number | null {
  if (value && /^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = value ? Date.parse(value) : NaN;
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/**
 * Seconds left of a state's push lifetime, counted from when the relay learned it (or an operator re-drove it): a
 * push retried after hours must not ask the service to keep it another full day.
 */
export const remainingTtl = (send: QueuedSend, now: number): number =>
  Math.max(
    1,
    Math.min(pushTtl(send.alert), Math.ceil(pushTtl(send.alert) - (now - (send.since ?? send.alert.at)) / 1000)),
  );
