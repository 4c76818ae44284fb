/** Rejected by withTimeout: what did not answer in time, in the words given. */
export class TimedOut extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimedOut';
  }
}

/**
 * `work`, or a TimedOut rejection after `ms`: for the browser's own promises that may never settle (a push service
 * that does not answer leaves PushManager.subscribe pending for good). The work itself cannot be cancelled; whatever
 * it resolves with later is dropped.
 */
export function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(message)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
