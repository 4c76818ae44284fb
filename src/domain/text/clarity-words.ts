import { grouped } from '../amount.ts';
import type { CallArgument } from '../state/call-attempt.ts';
import type { Naming } from './effect-text.ts';

/*
 * A Clarity value as the node prints it (`u5000000`, `'ST1…`, `(some 0x6f6f7073)`), in words a person reads: numbers
 * grouped, addresses by the names the user knows, text as text. The printed value may have been cut short (an
 * ellipsis at its end): what is there is read, the cut part shown as cut.
 */

type Value = { readonly atom: string } | { readonly head: string; readonly items: readonly Value[] };

const TOKEN = /\(|\)|u?"(?:[^"\\]|\\.)*"?|[^\s()]+/g;

/** The printed value as a tree; an unclosed list (a cut value) is closed where the text ends. */
function parse(repr: string): Value | null {
  const tokens = repr.match(TOKEN) ?? [];
  let at = 0;
  const value = (): Value | null => {
    const token = tokens[at++];
    if (token === undefined || token === ')') return null;
    if (token !== '(') return { atom: token };
    const head = tokens[at++] ?? '';
    const items: Value[] = [];
    while (at < tokens.length && tokens[at] !== ')') {
      const item = value();
      if (item) items.push(item);
    }
    at++;
    return { head, items };
  };
  const root = value();
  return root && at >= tokens.length ? root : null;
}

const CONTROL = /\p{Cc}/u;

/** A buffer's bytes as text when they read as UTF-8 text (a memo), else null. */
function bufferText(hex: string): string | null {
  if (hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(hex)) return null;
  const bytes = Uint8Array.from(hex.match(/../g)!, (byte) => parseInt(byte, 16));
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return CONTROL.test(text) ? null : text;
  } catch {
    return null;
  }
}

/** `0x6f6f7073` → “oops”; a key or hash by its ends, `0x31ef5e…7818`; a cut one by its start, `0x81cfd4…`. */
function bufferWords(atom: string): string {
  const cut = atom.endsWith('…');
  const hex = atom.slice(2, cut ? -1 : undefined);
  const text = cut ? null : bufferText(hex);
  if (text !== null) return `“${text}”`;
  if (cut) return `0x${hex.slice(0, 6)}…`;
  return hex.length > 14 ? `0x${hex.slice(0, 6)}…${hex.slice(-4)}` : atom;
}

function atomWords(atom: string, naming: Pick<Naming, 'party'>): string {
  const number = /^(u)?(-?)(\d+)$/.exec(atom);
  if (number) return `${number[2] ? '−' : ''}${grouped(BigInt(number[3]!))}`;
  if (atom.startsWith("'")) return atom.endsWith('…') ? atom.slice(1) : naming.party(atom.slice(1));
  if (atom.startsWith('0x')) return bufferWords(atom);
  const text = /^u?"(.*?)"?$/s.exec(atom);
  if (text) return `“${text[1]}”`;
  return atom;
}

function words(value: Value, naming: Pick<Naming, 'party'>): string {
  if ('atom' in value) return atomWords(value.atom, naming);
  const inner = value.items.map((item) => words(item, naming));
  switch (value.head) {
    case 'some':
      return inner.join(' ');
    case 'ok':
      return `ok ${inner.join(' ')}`;
    case 'err':
      return `error ${inner.join(' ')}`;
    case 'list':
      return `[${inner.join(', ')}]`;
    case 'tuple':
      // Each entry is `(name value)`: its name is an atom, read as it is.
      return `(${value.items
        .map((entry) =>
          'items' in entry ? `${entry.head} ${entry.items.map((item) => words(item, naming)).join(' ')}` : entry.atom,
        )
        .join(', ')})`;
    default:
      return `(${[value.head, ...inner].join(' ')})`;
  }
}

/**
 * "1,000,000" for `u1000000`, "Alice" (or `ST2CY5…K9AG`) for `'ST2CY5…`, “oops” for `(some 0x6f6f7073)`, "none",
 * "(hashbytes 0x31ef5e…7818, version 0x00)" for a tuple; the printed value as it is where it cannot be read.
 */
export function clarityWords(repr: string, naming: Pick<Naming, 'party'>): string {
  const value = parse(repr);
  return value ? words(value, naming) : repr;
}

/** The principal a printed value names (`'ST1…` or `'ST1….name`), or null for any other value. */
export const clarityPrincipal = (repr: string): string | null =>
  /^'[0-9A-Z]+(\.[a-zA-Z][a-zA-Z0-9_-]*)?$/.test(repr) ? repr.slice(1) : null;

/** A `uint` as printed (`u5000000`), or null for any other value. */
export const clarityUint = (repr: string): bigint | null => {
  const digits = /^u(\d+)$/.exec(repr)?.[1];
  return digits === undefined ? null : BigInt(digits);
};

/** A SIP-010 token's `transfer`, as its arguments say: what it moves, from whom, to whom, with which memo. */
export interface TokenTransferCall {
  readonly amount: bigint;
  readonly from: string;
  readonly to: string;
  /** The memo as printed: `none`, or `(some 0x…)`. */
  readonly memo: string;
}

/**
 * A call of a token's `transfer` (amount, sender, recipient, memo: SIP-010's trait fixes the order and the types, not
 * the names), read from its arguments; null for any other call, or arguments of other types.
 */
export function tokenTransferCall(
  call: { readonly functionName: string },
  args: readonly CallArgument[],
): TokenTransferCall | null {
  if (call.functionName !== 'transfer' || args.length !== 4) return null;
  const [amount, sender, recipient, memo] = args.map((arg) => arg.repr) as [string, string, string, string];
  const units = clarityUint(amount);
  const from = clarityPrincipal(sender);
  const to = clarityPrincipal(recipient);
  if (units === null || !from || !to || !/^(none|\(some 0x[0-9a-f]*\))$/.test(memo)) return null;
  return { amount: units, from, to, memo };
}

/**
 * The asset a token contract's call moves, as far as the call tells: the contract's own name stands in for the
 * asset's (`….watch-gold::watch-gold`); its decimals and symbol are the contract's, so amounts read right.
 */
export const callTokenAsset = (contractId: string): string =>
  `${contractId}::${contractId.split('.')[1] ?? contractId}`;
