import type { RetryPolicy } from '../../src/relay/push/retry-policy.ts';

/**
 * Push retries with time scaled down for the fault tests: the old budget (5 tries, 2 + 4 + 8 + 16 s) is
 * 50 + 100 + 200 + 400 ms here, and the wait stops growing at 400 ms, so a state refused through an outage is sent
 * within half a second of its end. A state's lifetime stays its TTL: nothing is given up during a run.
 */
export const SCALED_RETRY: Pick<RetryPolicy, 'backoffMs' | 'maxBackoffMs'> = { backoffMs: 50, maxBackoffMs: 400 };

/** More refusals of one alert than the old budget tried (5): an outage it would have lost the alert to. */
export const OLD_BUDGET_TRIES = 5;
