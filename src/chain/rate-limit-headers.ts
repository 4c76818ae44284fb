// What a node or its gateway says of its rate limit, in the headers the scheduler reads.

/** A node's word on its reset is believed this far ahead at most: past it, the header was misread or a clock is off. */
export const MAX_NODE_RESET_MS = 60 * 60_000;

/**
 * When the node's rate-limit window renews, from `ratelimit-reset`: seconds from now (the IETF draft, most proxies)
 * or a Unix time in seconds (Hiro's gateway documents that); a value past 10^9 can only be a time. Null when
 * unreadable or further than `MAX_NODE_RESET_MS` (read as seconds from now, a Unix time would pause the node for
 * decades), or a time already past: the page's own pace rules then.
 */
export function rateLimitResetAt(value: string | null, now: number): number | null {
  if (value === null || value.trim() === '') return null;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0) return null;
  if (number < 1e9) return number * 1000 > MAX_NODE_RESET_MS ? null : now + number * 1000;
  // A time already past says the two clocks disagree (a device ahead): believed, it would renew the budget at once
  // and switch the page's own pace off, so it is not.
  const at = number * 1000;
  return at <= now || at - now > MAX_NODE_RESET_MS ? null : at;
}

/** `retry-after` as seconds or an HTTP date; null when absent or unreadable (CORS hides it from pages). */
export function retryAfterMs(response: Response, now: number): number | null {
  const value = response.headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
