const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const transactions = (count: number) => `${count} transaction${count === 1 ? '' : 's'}`;

/** What the full history holds when the node could not be read, and what that leaves out. */
export interface Shortfall {
  /** The transactions the list holds (those read, and those the engine met since). */
  readonly listed: number;
  /** How many the node said the history has at its last answer; null if it never said. */
  readonly nodeTotal: number | null;
  /** The history was read down to its first transaction. */
  readonly complete: boolean;
  /** The time (epoch seconds) of the oldest transaction held, if any. */
  readonly oldest: number | undefined;
  /** Why the node could not be read, a sentence without its full stop (readFailureWords). */
  readonly problem: string;
}

/**
 * "Showing what is on this device: 12 transactions of about 40, none before 2026-01-02. Older ones are missing: …".
 * The node's total is as old as its last answer, and the list may have grown since: a total no larger than the
 * count is left unsaid, never told as less than it. Read down to the first, nothing older is missing; only what came
 * since may be.
 */
export function shortfallWords({ listed, nodeTotal, complete, oldest, problem }: Shortfall): string {
  if (complete)
    return `Showing what is on this device: all ${transactions(listed)}, down to the first. Newer ones could not be checked: ${problem}.`;
  // Older ones are missing: a total no larger than the list is out of date, and would say nothing is.
  const total = nodeTotal === null || nodeTotal <= listed ? '' : ` of about ${nodeTotal}`;
  const before = oldest === undefined ? '' : `, none before ${day(oldest)}`;
  return `Showing what is on this device: ${transactions(listed)}${total}${before}. Older ones are missing: ${problem}.`;
}
