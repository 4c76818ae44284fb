/**
 * CSV text as RFC 4180 writes it: fields with a comma, quote or line break are quoted, quotes doubled, lines end
 * with CRLF. A field a spreadsheet would run as a formula (=, +, -, @, a tab or CR first) gets a leading apostrophe:
 * memos and labels are anyone's text.
 */
const FORMULA = /^[=+\-@\t\r]/;

export function csvField(value: string): string {
  const safe = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvLine = (fields: readonly string[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** UTF-8's byte-order mark: a spreadsheet that finds it reads the file as UTF-8 (“ ”, ☕), not as its own code page. */
export const withByteOrderMark = (text: string): string => `\uFEFF${text}`;
