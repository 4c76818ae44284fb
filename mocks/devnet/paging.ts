/** Cursor paging as the v3 routes do it: newest first, `cursor` names the first item of a page. */
export interface CursorPage<T> {
  readonly total: number;
  readonly limit: number;
  readonly cursor: { readonly next: string | null; readonly previous: string | null; readonly current: string | null };
  readonly results: T[];
}

export class PagingError extends Error {}

/**
 * `items` are newest first; `cursorOf` gives each item's cursor. An unknown cursor is an error, as on the real API.
 */
export function cursorPage<T, R>(
  items: readonly T[],
  cursorOf: (item: T) => string,
  request: { limit: number; cursor: string | null },
  render: (item: T) => R,
): CursorPage<R> {
  const start = request.cursor === null ? 0 : items.findIndex((item) => cursorOf(item) === request.cursor);
  if (start < 0) throw new PagingError(`cursor ${request.cursor} does not name a result`);
  const page = items.slice(start, start + request.limit);
  const next = items[start + request.limit];
  const previous = start > 0 ? items[Math.max(0, start - request.limit)] : undefined;
  const first = page[0];
  return {
    total: items.length,
    limit: request.limit,
    cursor: {
      next: next ? cursorOf(next) : null,
      previous: previous ? cursorOf(previous) : null,
      current: first ? cursorOf(first) : null,
    },
    results: page.map(render),
  };
}
