import { checkContractName } from './contract-name.ts';
import type { Network } from '../network.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * What can be said of a principal without the checksum code (c32check and SHA-256 stay out of the first paint):
 * the length limits the messages quote, and the shape of a principal this app stored itself.
 */
export const MAX_ADDRESS_LENGTH = 41;
/** The shortest possible spelling (an all-zero hash keeps a '0' per byte, plus the checksum). */
export const MIN_ADDRESS_LENGTH = 28;

export type PrincipalKind = 'single-sig' | 'multi-sig' | 'contract';

/** A principal's identity, network and kind: all a watch entry keeps. */
export interface PrincipalShape {
  readonly principal: string;
  readonly network: Network;
  readonly kind: PrincipalKind;
}

/** Reads a principal from text, or says in a sentence why it is not one. */
export type ReadPrincipal = (text: string) => Result<PrincipalShape, string>;

/** Canonical c32 (upper case, no O, I, L or U) after `S` and a known version character. */
const CANONICAL = /^S([PMTN])[0-9A-HJKMNP-TV-Z]+$/;
const VERSION_CHAR: Record<string, { network: Network; kind: 'single-sig' | 'multi-sig' }> = {
  P: { network: 'mainnet', kind: 'single-sig' },
  M: { network: 'mainnet', kind: 'multi-sig' },
  T: { network: 'testnet', kind: 'single-sig' },
  N: { network: 'testnet', kind: 'multi-sig' },
};

/**
 * A principal as this app stores it: canonical and checksummed when it was added (the full parser ran then), so its
 * shape is checked on every read and a damaged record is refused; its checksum is checked again by the node.
 */
export const readStoredPrincipal: ReadPrincipal = (text) => {
  const dot = text.indexOf('.');
  const address = dot < 0 ? text : text.slice(0, dot);
  const match = CANONICAL.exec(address);
  const known = match ? VERSION_CHAR[match[1]!] : undefined;
  if (!known || address.length < MIN_ADDRESS_LENGTH || address.length > MAX_ADDRESS_LENGTH)
    return err(`“${text.slice(0, 48)}” is not a stored Stacks address (a canonical SP, SM, ST or SN address)`);
  if (dot < 0) return ok({ principal: text, ...known });
  if (checkContractName(text.slice(dot + 1)))
    return err(`“${text.slice(0, 48)}” does not end in a valid contract name`);
  return ok({ principal: text, network: known.network, kind: 'contract' });
};
