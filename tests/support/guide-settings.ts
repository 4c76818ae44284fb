import { readFileSync } from 'node:fs';

/**
 * What the guides give an operator to copy, read from the files themselves: a systemd unit's settings, the
 * environment files the guides write out, with their placeholders replaced as the guides say.
 */

/** Each `Key=value` of a unit, every value a key is given, comments left out. */
export function readUnit(path: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  return settings;
}

/** The environment a unit gives the server (its Environment= lines). */
export const environmentOf = (unit: Map<string, string[]>): Record<string, string> =>
  Object.fromEntries(
    (unit.get('Environment') ?? []).flatMap((line) =>
      line.split(/\s+/).map((pair) => pair.split(/=(.*)/s, 2) as [string, string]),
    ),
  );

/** A guide's environment-file blocks: code blocks made only of NAME=value lines (indented in a list or not). */
export const envBlocksOf = (text: string): Record<string, string>[] =>
  [...text.matchAll(/^( *)```sh\n([\s\S]*?)\n\1```/gm)]
    .map(([, , body]) => body!.split('\n').map((line) => line.trim()))
    .filter((lines) => lines.every((line) => /^[A-Z_]+=\S+$/.test(line)))
    .map((lines) => Object.fromEntries(lines.map((line) => line.split(/=(.*)/s, 2) as [string, string])));

/** example.com replaced by the reader's own domain, as the guides say. */
export const asReplaced = (file: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(file).map(([name, value]) => [name, value.replace('example.com', 'yourdomain.org')]),
  );
