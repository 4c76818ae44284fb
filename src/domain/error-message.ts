/** What a caught error says: its message, or the thrown value itself when something other than an Error was thrown. */
export const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));
