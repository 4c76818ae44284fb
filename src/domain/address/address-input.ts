import { MIN_ADDRESS_LENGTH } from './address-shape.ts';

const SPACE = '[\\s\\u200B-\\u200D\\u2060\\uFEFF]';
const SPACES = new RegExp(`${SPACE}+`, 'g');
const SPACES_AT_THE_ENDS = new RegExp(`^${SPACE}+|${SPACE}+$`, 'g');

const compact = (text: string): string => text.replace(SPACES, '');

/**
 * What a user pasted, ready for the address parser. Wallets show addresses in groups of four, copies pick up line
 * breaks, non-breaking and zero-width spaces: none of them can be part of an address or a BNS name, so there every
 * one goes, wherever it is. The contract name of a contract principal (`SP….name`) is kept as typed, but for the
 * ends of the whole input: a space or any other character a contract name cannot hold is named to the user, never
 * dropped from a name that would then be another contract's.
 */
export function compactAddressInput(text: string): string {
  const trimmed = text.replace(SPACES_AT_THE_ENDS, '');
  const dot = trimmed.indexOf('.');
  if (dot < 0) return compact(trimmed);
  const address = compact(trimmed.slice(0, dot));
  // Shorter than any address, the first part is a BNS name's (`alice.btc`): read whole, as the parser reads it.
  if (address.length < MIN_ADDRESS_LENGTH) return compact(trimmed);
  return `${address}${trimmed.slice(dot)}`;
}
