import type { AddressError, InvalidCharacter, Respelling } from './address.ts';
import { MAX_ADDRESS_LENGTH, MIN_ADDRESS_LENGTH } from './address-shape.ts';
import { CONTRACT_NAME_MAX_LENGTH } from './contract-name.ts';
import { NETWORK_LABEL } from '../network.ts';

const PREFIXES = 'Stacks addresses start with SP or SM on mainnet, ST or SN on testnet';

/** A sentence a user can act on: what is wrong, and what would be right. */
export function describeAddressError(error: AddressError): string {
  switch (error.kind) {
    case 'empty':
      return 'Enter a Stacks address, for example one starting with SP.';
    case 'foreign':
      return error.chain === 'bitcoin'
        ? `This is a Bitcoin address. ${PREFIXES}.`
        : `This is an Ethereum address. ${PREFIXES}.`;
    case 'name':
      return `“${error.name}” looks like a BNS name. Enter the Stacks address it belongs to (${PREFIXES}).`;
    case 'prefix':
      return `A Stacks address starts with S, not ${nameOf(error.found)}. ${PREFIXES}.`;
    case 'characters':
      return describeCharacters(error.invalid);
    case 'length':
      return error.length > MAX_ADDRESS_LENGTH
        ? `This has ${error.length} characters; a Stacks address has at most ${MAX_ADDRESS_LENGTH}. Check for extra characters.`
        : `This has ${error.length} characters; a Stacks address has ${MAX_ADDRESS_LENGTH} (never fewer than ${MIN_ADDRESS_LENGTH}). Check that it was copied whole.`;
    case 'version':
      return `“${error.prefix}” is not a Stacks address prefix. ${PREFIXES}.`;
    case 'checksum':
      return error.length === MAX_ADDRESS_LENGTH
        ? 'The checksum does not match: check the characters, one is probably mistyped.'
        : `The checksum does not match: check the characters, one is probably mistyped or missing (this has ${error.length} characters; most Stacks addresses have ${MAX_ADDRESS_LENGTH}).`;
    case 'hash-length':
      return `This decodes to ${error.bytes} bytes, but a Stacks address holds exactly 20. Check that it was copied whole.`;
    case 'network':
      return `This is a ${NETWORK_LABEL[error.actual].toLowerCase()} address, but ${NETWORK_LABEL[error.expected]} is selected. Choose ${NETWORK_LABEL[error.actual]} or enter a ${NETWORK_LABEL[error.expected].toLowerCase()} address (${error.expected === 'mainnet' ? 'SP or SM' : 'ST or SN'}).`;
    case 'contract-name':
      return describeContractName(error);
  }
}

/**
 * Why an address typed otherwise is kept in another spelling, for the form to say where it was added ("Saved as ST3… —
 * Stacks addresses are written in capitals."): the user sees that what is stored is what they meant, and why it reads
 * differently.
 */
export function respellingReason(respelled: Respelling): string {
  const digits = new Map(respelled.lookalikes.map(({ char, digit }) => [char, digit]));
  const reads = [...digits].map(([char, digit], index) => `“${char}”${index === 0 ? ' reads' : ''} as ${digit}`);
  const readsAs = reads.length > 1 ? `${reads.slice(0, -1).join(', ')} and ${reads.at(-1)}` : (reads[0] ?? '');
  if (!respelled.lowercase) return `in a Stacks address ${readsAs}`;
  return `Stacks addresses are written in capitals${readsAs ? `, and in them ${readsAs}` : ''}`;
}

function describeCharacters(invalid: readonly InvalidCharacter[]): string {
  const shown = invalid.slice(0, 3).map(({ char, position }) => `${nameOf(char)} at position ${position}`);
  const more = invalid.length > 3 ? ` and ${invalid.length - 3} more` : '';
  const subject = invalid.length === 1 ? 'This character cannot' : 'These characters cannot';
  return `${subject} be in a Stacks address: ${shown.join(', ')}${more}. Addresses use digits and the letters A–Z except U.`;
}

/**
 * How a refused character is named so that the user can find it: invisible and space-like ones by their code point,
 * and any non-ASCII one with its code point too, so a Cyrillic “О” or a full-width “Ｓ” is not mistaken for the
 * Latin letter it imitates.
 */
function nameOf(char: string): string {
  if (char === ' ') return 'a space';
  if (char === '\t') return 'a tab';
  if (char === '\n' || char === '\r') return 'a line break';
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (/\s/.test(char)) return `a special space (${code})`;
  if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u.test(char)) return `an invisible character (${code})`;
  if (/\p{M}/u.test(char)) return `a combining mark (${code})`;
  if (/^[\x21-\x7E]$/.test(char)) return `“${char}”`;
  return `“${char}” (${code}, not a Latin letter or digit)`;
}

function describeContractName(error: Extract<AddressError, { kind: 'contract-name' }>): string {
  const rule = `A contract name starts with a letter and uses letters, digits, “-” and “_”, at most ${CONTRACT_NAME_MAX_LENGTH} characters.`;
  switch (error.problem) {
    case 'missing':
      return `The contract name after the dot is missing. ${rule}`;
    case 'too-long':
      return `The contract name has ${error.length} characters. ${rule}`;
    case 'first-character':
      return `The contract name cannot start with ${nameOf(error.char)}. ${rule}`;
    case 'character':
      return `The contract name cannot contain ${nameOf(error.char)} at position ${error.position} of the name. ${rule}`;
  }
}
