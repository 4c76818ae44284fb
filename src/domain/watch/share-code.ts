import type { ReadPrincipal } from '../address/address-shape.ts';
import { crc32 } from './crc32.ts';
import type { TransferItem } from './list-transfer.ts';
import { err, ok, type Result } from '../result.ts';
import { isDefaultRules, packRules, unpackRules } from '../alerts/rules-record.ts';
import { readWatchEntry } from './watch-entry.ts';
import { IMPORT_MAX_ENTRIES } from './watchlist-file.ts';

/**
 * The list in a link's fragment (`/receive#list=…`), which browsers never send to a server, cut into parts small
 * enough for a QR code a phone's camera reads off a screen. A part is `version.index.total.set.check.data`: `set`
 * is the checksum of the whole data (which parts belong together, and whether they add up), `check` that of the
 * part itself (a damaged or cut-off part is told apart from a whole one).
 */
export const SHARE_PREFIX = 'list=';
export const SHARE_VERSION = 1;
/**
 * Data characters per part: with the app's address in front, a code of version 18 or less at error correction level
 * L (a code on a screen is not scuffed like a printed one), which a phone's camera reads at three pixels a module.
 */
export const PART_CHARS = 620;
const MAX_PARTS = 99;

export interface SharePart {
  readonly index: number;
  readonly total: number;
  readonly set: string;
  readonly data: string;
}

export function shareFragments(items: readonly TransferItem[]): string[] {
  const packed = items.map(({ entry, rules }) => {
    const withRules = rules && !isDefaultRules(rules) ? packRules(rules) : 0;
    if (entry.name) return [entry.principal, entry.label, withRules, entry.name];
    return withRules ? [entry.principal, entry.label, withRules] : [entry.principal, entry.label];
  });
  const data = toBase64Url(JSON.stringify(packed));
  const set = crc32(data);
  const total = Math.max(1, Math.ceil(data.length / PART_CHARS));
  return Array.from({ length: total }, (_, at) =>
    partText({ index: at + 1, total, set, data: data.slice(at * PART_CHARS, (at + 1) * PART_CHARS) }),
  );
}

/** A part as the fragment it was read from (`list=…`), which readSharePart reads back to the same part. */
export function partText({ index, total, set, data }: SharePart): string {
  const head = `${SHARE_VERSION}.${index}.${total}.${set}`;
  return `${SHARE_PREFIX}${head}.${crc32(`${head}.${data}`)}.${data}`;
}

const NOT_OURS =
  'This is not a Stacks Watch list link or code: expected a link with “#list=” made under Settings → Move to another device.';

/** Reads one part from a scanned code, a pasted link or a fragment. */
export function readSharePart(text: string): Result<SharePart, string> {
  const at = text.indexOf(SHARE_PREFIX);
  if (at < 0 || (at > 0 && !/[#&]/.test(text[at - 1] ?? ''))) return err(NOT_OURS);
  const fields = text
    .slice(at + SHARE_PREFIX.length)
    .trim()
    .split('.');
  const [version, index, total, set, check, data] = fields;
  if (version !== undefined && /^\d+$/.test(version) && Number(version) > SHARE_VERSION)
    return err('This code was made by a newer version of Stacks Watch: update the app here, then read it again.');
  const number = (value: string | undefined) => (value && /^\d{1,2}$/.test(value) ? Number(value) : 0);
  const [i, n] = [number(index), number(total)];
  const hex = (value: string | undefined) => value !== undefined && /^[0-9a-f]{8}$/.test(value);
  const shaped = fields.length === 6 && version === `${SHARE_VERSION}` && hex(set) && hex(check);
  if (!shaped || !/^[\w-]+$/.test(data ?? '') || i < 1 || n < 1 || i > n || n > MAX_PARTS)
    return err('This code or link is incomplete or damaged: show it again on the other device and read it whole.');
  if (crc32(`${version}.${index}.${total}.${set}.${data}`) !== check)
    return err(
      `${n > 1 ? `Code ${i} of ${n}` : 'This code'} is damaged or incomplete (its check does not match): show it again on the other device and read it whole.`,
    );
  return ok({ index: i, total: n, set: set!, data: data! });
}

/** The parts read so far plus a new one; a part of another list is refused, a repeat changes nothing. */
export function addPart(parts: readonly SharePart[], part: SharePart): Result<SharePart[], string> {
  const [first] = parts;
  if (first && (first.set !== part.set || first.total !== part.total))
    return err(
      'This code belongs to another list than the codes read so far. Read the codes shown now on the other device, or start again.',
    );
  if (parts.some((known) => known.index === part.index)) return ok([...parts]);
  return ok([...parts, part].sort((a, b) => a.index - b.index));
}

/** Reads several texts (pasted links, a fragment) into the parts known so far; the first problem is kept to tell. */
export function readParts(
  texts: readonly string[],
  known: readonly SharePart[],
): { parts: SharePart[]; problem: string | null } {
  let parts = [...known];
  let problem: string | null = null;
  for (const text of texts) {
    const part = readSharePart(text);
    const added = part.ok ? addPart(parts, part.value) : part;
    if (added.ok) parts = added.value;
    else problem ??= added.error;
  }
  return { parts, problem };
}

export function missingParts(parts: readonly SharePart[]): number[] {
  const total = parts[0]?.total ?? 0;
  const have = new Set(parts.map((part) => part.index));
  return Array.from({ length: total }, (_, at) => at + 1).filter((index) => !have.has(index));
}

/** The list the parts carry, every field checked as an imported file's are; `read` is the full address parser. */
export function decodeShare(
  parts: readonly SharePart[],
  read: ReadPrincipal,
  now: number,
): Result<TransferItem[], string> {
  const data = parts.map((part) => part.data).join('');
  if (parts.length === 0 || missingParts(parts).length > 0 || crc32(data) !== parts[0]!.set)
    return err('The codes do not add up to one list: make them again on the other device and read them all.');
  let packed: unknown;
  try {
    packed = JSON.parse(fromBase64Url(data));
  } catch {
    return err('The codes hold no list this app can read: make them again on the other device.');
  }
  if (!Array.isArray(packed) || packed.length === 0) return err('The codes hold no addresses.');
  if (packed.length > IMPORT_MAX_ENTRIES)
    return err(`The codes hold ${packed.length} addresses; at most ${IMPORT_MAX_ENTRIES} can be added at once.`);
  const items: TransferItem[] = [];
  for (const [at, raw] of packed.entries()) {
    const item = unpackItem(raw, read, now);
    if (!item.ok) return err(`Nothing was added. Address ${at + 1} in the codes: ${item.error.replace(/\.$/, '')}.`);
    items.push(item.value);
  }
  return ok(items);
}

function unpackItem(raw: unknown, read: ReadPrincipal, now: number): Result<TransferItem, string> {
  if (!Array.isArray(raw) || raw.length < 2 || raw.length > 4)
    return err('expected an address, its label and optionally its rules and BNS name');
  const [principal, label, rules = 0, name] = raw as unknown[];
  const entry = readWatchEntry({ principal, label, ...(name === undefined ? {} : { name }) }, now, read);
  if (!entry.ok) return entry;
  if (rules === 0) return ok({ entry: entry.value, rules: null });
  const unpacked = unpackRules(rules);
  return unpacked.ok ? ok({ entry: entry.value, rules: unpacked.value }) : unpacked;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(data: string): string {
  const binary = atob(data.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}
