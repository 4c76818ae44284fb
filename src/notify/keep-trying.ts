import { backoffDelay, type Backoff } from '../domain/backoff.ts';
import { errorMessage } from '../domain/error-message.ts';

/** How long to wait between tries of a storage read or write that failed: doubling, with jitter, up to a cap. */
export type RetryPolicy = Backoff;

export const STORAGE_RETRY: RetryPolicy = { firstMs: 250, maxMs: 30_000 };

/**
 * Runs `task` until it succeeds. Storage that refuses a write (a database restarting, IndexedDB over its quota or
 * closed under the page) delays what depends on it and never loses it: the caller moves its marks on only once this
 * resolves. The first failure of a run is reported, and then how many tries the task took, not every try.
 */
export async function keepTrying<T>(
  task: () => Promise<T>,
  what: string,
  report: ((problem: string) => void) | undefined,
  policy: RetryPolicy = STORAGE_RETRY,
): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      const result = await task();
      if (tries > 1) report?.(`${what}: done after ${tries} tries`);
      return result;
    } catch (error) {
      if (tries === 1) report?.(`${what} failed, trying again until it works: ${errorMessage(error)}`);
      // Jitter spreads the retries of many writers (a relay's devices) that failed together.
      await new Promise((resolve) => setTimeout(resolve, backoffDelay(policy, tries)));
    }
  }
}
