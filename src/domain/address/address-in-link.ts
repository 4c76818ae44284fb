import { compactAddressInput } from './address-input.ts';
import { MAX_ADDRESS_LENGTH, MIN_ADDRESS_LENGTH } from './address-shape.ts';
import { CONTRACT_NAME_MAX_LENGTH } from './contract-name.ts';

/** Where the address read from what was typed, pasted or scanned came from. */
export type AddressSource = 'typed' | 'payment link' | 'web link';

export type AddressInInput =
  | { readonly text: string; readonly source: AddressSource }
  /** A web link none of whose parts is a Stacks address (a home page, a transaction's page). */
  | { readonly text: null; readonly source: 'web link' };

/** Wallets' payment URIs: `stacks:SP…?amount=…`, sometimes `web+stacks:` or `stx:`, with or without `//`. */
const PAYMENT_URI = /^(?:web\+stacks|stacks|stx):(?:\/\/)?([^?#]*)/i;
const WEB_LINK = /^https?:\/\//i;
/** A path part shaped like an address, or a contract principal (`SP….name`): the parser says what is wrong with it. */
const ADDRESS_PART = new RegExp(
  `^S[0-9A-Za-z]{${MIN_ADDRESS_LENGTH - 1},${MAX_ADDRESS_LENGTH - 1}}(?:\\.[A-Za-z][A-Za-z0-9_-]{0,${CONTRACT_NAME_MAX_LENGTH - 1}})?$`,
);

/**
 * The address in what the user pasted or scanned: the text itself (spaces a copy picked up dropped), the address of a
 * wallet's payment URI (its amount and memo are not part of it), or the one in a web link: an explorer's page of an
 * address or a contract (`…/address/SP…?chain=mainnet`, `…/txid/SP….token`), found in its path, fragment or query.
 * The address still goes through the parser, which says what is wrong with it; the form says where it was read from.
 */
export function addressInInput(input: string): AddressInInput {
  const text = compactAddressInput(input);
  const uri = PAYMENT_URI.exec(text);
  if (uri) return { text: safelyDecoded(uri[1]!), source: 'payment link' };
  if (!WEB_LINK.test(text)) return { text, source: 'typed' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { text, source: 'typed' };
  }
  const parts = [...url.pathname.split('/'), ...`${url.search}${url.hash}`.split(/[/?&=#+]/)].map(safelyDecoded);
  const found = parts.find((part) => ADDRESS_PART.test(part));
  return { text: found ?? null, source: 'web link' };
}

const safelyDecoded = (part: string): string => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/** What the form says of a web link with no address in it. */
export const NO_ADDRESS_IN_LINK =
  'This link holds no Stacks address. Paste the address itself (SP… or SM… on mainnet, ST… or SN… on testnet), ' +
  'or a link to its page on an explorer.';
