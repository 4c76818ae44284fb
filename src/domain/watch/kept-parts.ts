import { partText, readParts, type SharePart } from './share-code.ts';
import { jsonOrNull } from '../json-or-null.ts';
import { isRecord } from '../is-record.ts';

/**
 * The codes of a multi-code list read so far on this device, kept between page loads: each link of the sequence may
 * open in a page of its own. A record holds one transfer (its `set`), and is nothing once it is older than
 * KEEP_PARTS_MS — long enough to walk to the other device and back, short enough that a stale half-list never
 * greets a later transfer.
 */
export const KEEP_PARTS_MS = 60 * 60 * 1000;
const KEPT_VERSION = 1;

export interface KeptParts {
  readonly savedAt: number;
  readonly parts: readonly SharePart[];
}

export function keptPartsText(parts: readonly SharePart[], now: number): string {
  return JSON.stringify({ version: KEPT_VERSION, savedAt: now, parts: parts.map(partText) });
}

/**
 * A stored record read back: each part checked as a link's is, all of one transfer (`set`, when given), saved no
 * more than KEEP_PARTS_MS ago. Anything else — expired, edited by hand, another version, parts of two lists — is null.
 */
export function readKeptParts(text: string | null, now: number, set?: string): KeptParts | null {
  const value = jsonOrNull(text);
  const { version, savedAt, parts } = isRecord(value) ? value : {};
  if (version !== KEPT_VERSION || typeof savedAt !== 'number' || !Array.isArray(parts) || parts.length === 0)
    return null;
  if (!(savedAt <= now && now - savedAt < KEEP_PARTS_MS)) return null;
  if (!parts.every((part) => typeof part === 'string')) return null;
  const read = readParts(parts, []);
  if (read.problem !== null || (set !== undefined && read.parts[0]?.set !== set)) return null;
  return { savedAt, parts: read.parts };
}
