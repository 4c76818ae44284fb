/**
 * An RFC 4180 reader written for the tests, independent of the app's CSV writer: quoted fields, doubled quotes,
 * CRLF or LF line ends. Throws on a quote where none may be, so a malformed file fails the test that reads it.
 */
export function readCsv(text: string): string[][] {
  // UTF-8's byte-order mark, where a file starts with one, is no part of its first field (as spreadsheets read it).
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let at = 0;
  const endField = () => {
    row.push(field);
    field = '';
  };
  while (at < text.length) {
    const char = text[at]!;
    const pair = text.slice(at, at + 2);
    if (quoted) {
      if (pair === '""') {
        field += '"';
        at += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      at += 1;
      continue;
    }
    if (char === '"') {
      if (field !== '') throw new Error(`a quote inside an unquoted field at ${at}`);
      quoted = true;
    } else if (char === ',') endField();
    else if (char === '\r' || char === '\n') {
      endField();
      rows.push(row);
      row = [];
      if (pair === '\r\n') at += 1;
    } else field += char;
    at += 1;
  }
  if (quoted) throw new Error('the file ends inside a quoted field');
  if (field !== '' || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

/** Rows as records keyed by the header's names. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...rows] = readCsv(text);
  if (!header) throw new Error('no header');
  return rows.map((row) => {
    if (row.length !== header.length) throw new Error(`a row of ${row.length} fields under ${header.length} columns`);
    return Object.fromEntries(header.map((name, index) => [name, row[index]!]));
  });
}

/** A decimal string as base units at `decimals`, exactly (no floating point). */
export function baseUnits(decimal: string, decimals: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!match) throw new Error(`not a plain decimal: ${JSON.stringify(decimal)}`);
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) throw new Error(`${decimal} has more than ${decimals} decimals`);
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}
