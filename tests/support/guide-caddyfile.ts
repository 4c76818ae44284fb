import { readFile } from 'node:fs/promises';

/**
 * The Caddyfiles docs/self-hosting.md gives, read from the document itself so that the tests run what a reader
 * copies: the public site's and the one-machine trial's (the same with `tls internal`). Each is the lines inside its
 * site block; the upstream is `127.0.0.1:8080`, which a test replaces with its own server's.
 */
const GUIDE = 'docs/self-hosting.md';
export const GUIDE_UPSTREAM = 'reverse_proxy 127.0.0.1:8080';

/** The lines inside the guide's `watch.example.com { … }` block. */
export async function guideSiteLines(): Promise<string[]> {
  const guide = await readFile(GUIDE, 'utf8');
  const block = /```caddyfile\nwatch\.example\.com \{\n([\s\S]*?)\n\}\n```/.exec(guide)?.[1];
  if (!block) throw new Error(`${GUIDE} has no \`watch.example.com { … }\` Caddyfile block`);
  return block.split('\n');
}

/** The lines inside the one-machine trial's `localhost { … }` block (indented in its list item). */
export async function trialSiteLines(): Promise<string[]> {
  const guide = await readFile(GUIDE, 'utf8');
  const block = /```caddyfile\n {3}localhost \{\n([\s\S]*?)\n {3}\}\n {3}```/.exec(guide)?.[1];
  if (!block) throw new Error(`${GUIDE} has no \`localhost { … }\` Caddyfile block for the trial`);
  return block.split('\n').map((line) => line.replace(/^ {3}/, ''));
}

/** The lines with the guide's upstream replaced by `host` (host:port). */
export const withUpstream = (lines: readonly string[], host: string): string[] =>
  lines.map((line) => (line.trim() === GUIDE_UPSTREAM ? line.replace(GUIDE_UPSTREAM, `reverse_proxy ${host}`) : line));
