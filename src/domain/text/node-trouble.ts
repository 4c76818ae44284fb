/**
 * What went wrong with a node, in a user's words rather than the browser's ("Failed to fetch"). A page is told
 * little: a request that got no answer at all may have met no network, a name that does not resolve, a refused
 * connection, a TLS failure or the page's own policy, and the browser does not say which; a timeout, a status
 * and a payload the app could not read are told apart.
 */
export function troubleWords(error: unknown, host: string): string {
  const status = statusOf(error);
  if (status === 429) return `${host} asks the app to slow down (429, too many requests).`;
  if (status === 401 || status === 403) return `${host} refused the app (${status}): check the API key in Settings.`;
  if (status !== null && status >= 500) return `${host} is having trouble: it answered ${status}.`;
  if (status !== null) return `${host} answered ${status}: is it a Stacks Blockchain API node?`;
  const message = error instanceof Error ? error.message : String(error);
  if (isTimeout(error)) return `${host} did not answer in time: the node is slow or the connection is too weak.`;
  if (error instanceof TypeError)
    return `Can’t reach ${host}: no network, the name does not resolve, or the connection was refused or blocked (the browser does not say which).`;
  if (/expected an amount of at least 0, got "-/.test(message))
    return `${host} sent a negative amount (${message}): the app keeps what it read before.`;
  if (/expected .*, got/.test(message)) return `${host} sent something the app cannot read (${message}).`;
  return `${host}: ${message}`;
}

/**
 * Why a read from a node failed, for a sentence of its own (no closing full stop): with the device offline, that is
 * the whole story and the node is not to blame ("This device is offline"); otherwise as troubleWords says. An answer
 * with a status came from somewhere, and is told as it is.
 */
export function readFailureWords(error: unknown, host: string, online: boolean): string {
  if (!online && statusOf(error) === null) return 'This device is offline';
  return troubleWords(error, host).replace(/\.$/, '');
}

/** When the next try is, for the connection panel: "next try in 40 s", "next try in 3 min". */
export function nextTryWords(retryAt: number, now: number): string {
  const seconds = Math.max(0, Math.round((retryAt - now) / 1000));
  if (seconds < 2) return 'trying again now';
  // A no-break space keeps the number with its unit when the words wrap ("20" at a line's end, "s." below).
  if (seconds < 90) return `next try in ${seconds}\u00a0s`;
  return `next try in ${Math.round(seconds / 60)}\u00a0min`;
}

const statusOf = (error: unknown): number | null => {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 ? status : null;
};

const isTimeout = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'AbortError' || error.name === 'TimeoutError' || error.message === 'timeout');

/**
 * What the node sent that the app set aside, for the connection panel: "Testnet node sent a negative balance for
 * ST3TBR…J7X4 ($.balance: expected an amount of at least 0, got "-5"): set aside, the last one read stands."
 * `subject` is what it was, without its article ("balance for ST3TBR…J7X4", "mempool event").
 */
export function setAsideWords(subject: string, error: unknown, host: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const what = /expected an amount of at least 0, got "-/.test(message)
    ? `a negative ${subject}`
    : `${/^[aeiou]/i.test(subject) ? 'an' : 'a'} ${subject} the app cannot read`;
  return `${host} sent ${what} (${message}): set aside, the last one read stands.`;
}

/**
 * A network whose node has not answered, where its addresses show: "Mainnet node unreachable since 10:42 · next try
 * in 35 s". `since` is the time of day the trouble began, as the device shows times.
 */
export function unreachableLine(label: string, since: string | null, retryAt: number | null, now: number): string {
  const began = since ? ` since ${since}` : '';
  return `${label} node unreachable${began}${retryAt ? ` · ${nextTryWords(retryAt, now)}` : ''}`;
}
