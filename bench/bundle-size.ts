import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** Issue 24's budget for the scripts fetched before the first paint, gzip kB (1 kB = 1,000 bytes). */
export const FIRST_PAINT_JS_BUDGET_KB = 95;

export interface BundleFigures {
  /** gzip bytes of every script the page loads before first paint (entry module and its modulepreloads). */
  readonly firstPaintJsGzip: number;
  readonly firstPaintCssGzip: number;
  readonly files: readonly { readonly file: string; readonly gzip: number }[];
}

/** Reads dist/index.html the way the browser does: what it fetches before it can render. */
export function measureBundle(dist: URL): BundleFigures {
  const html = readFileSync(new URL('index.html', dist), 'utf8');
  const scripts = [
    ...html.matchAll(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
  ].map((match) => match[1]!);
  const styles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((match) => match[1]!);
  const gzipOf = (file: string) => gzipSync(readFileSync(new URL(`.${file}`, dist)), { level: 9 }).length;
  const files = [...scripts, ...styles].map((file) => ({ file, gzip: gzipOf(file) }));
  const sum = (list: string[]) => list.reduce((total, file) => total + gzipOf(file), 0);
  return { firstPaintJsGzip: sum(scripts), firstPaintCssGzip: sum(styles), files };
}
