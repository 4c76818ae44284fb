/** Stored text (localStorage) as a value: null when there is none, or it is not JSON (edited by hand, cut short). */
export function jsonOrNull(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
