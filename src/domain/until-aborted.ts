/**
 * `work`, or the caller's abort (rejecting with its reason) if that comes first: a wait a cancel ends early (the
 * request scheduler's pace and backoff, a history download's wait for the node's budget). The work itself goes on.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const leave = () => reject(signal.reason);
    if (signal.aborted) return leave();
    signal.addEventListener('abort', leave, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', leave));
  });
}
