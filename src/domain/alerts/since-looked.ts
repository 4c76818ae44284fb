/**
 * Where the inbox's "since you last looked" divider goes: before the newest row the user had already had the chance
 * to see (its latest state stored at or before they last left the inbox), when rows newer than that stand above it.
 * Null when there is no such line to draw: a first look, nothing new, or nothing seen before. Rows are newest first.
 */
export function firstSeenRow(
  rows: readonly { readonly id: string; readonly at: number }[],
  lookedAt: number | null,
): string | null {
  if (lookedAt === null) return null;
  const index = rows.findIndex((row) => row.at <= lookedAt);
  return index > 0 ? rows[index]!.id : null;
}
