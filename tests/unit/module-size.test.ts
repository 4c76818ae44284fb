import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/* No style sheet in src/ over 300 lines: eslint's max-lines holds the TypeScript to the same (eslint.config.js). */

const MAX_LINES = 300;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

function styleSheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return styleSheets(path);
    return entry.name.endsWith('.css') ? [path] : [];
  });
}

/** Lines as eslint's max-lines counts them: a final newline ends the last line rather than opening another. */
const lineCount = (text: string): number => text.replace(/\r?\n$/, '').split(/\r?\n/).length;

describe('module size', () => {
  it(`keeps every style sheet in src/ at ${MAX_LINES} lines or fewer: a longer one is split by the part of the screen it styles`, () => {
    const sheets = styleSheets(SRC);
    expect(sheets.length).toBeGreaterThan(0);
    const over = sheets
      .map((path) => ({ path: relative(ROOT, path), lines: lineCount(readFileSync(path, 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ path, lines }) => `${path} (${lines} lines)`);
    expect(over).toEqual([]);
  });
});
