/** An error's message for a log line or a report: thrown values need not be Errors. */
export const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
