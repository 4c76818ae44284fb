import { c32address, c32addressDecode } from 'c32check';
import { MAX_ADDRESS_LENGTH, MIN_ADDRESS_LENGTH, type PrincipalKind } from './address-shape.ts';
import { checkContractName, type ContractNameProblem } from './contract-name.ts';
import { recogniseForeignAddress, type ForeignChain } from './foreign-address.ts';
import type { Network } from '../network.ts';
import { err, ok, type Result } from '../result.ts';

export type { PrincipalKind };
export { MAX_ADDRESS_LENGTH, MIN_ADDRESS_LENGTH };

/** A principal in canonical form: the spelling used in storage, URLs and feed topics. */
export interface Principal {
  /** `SP…` or `SP….contract-name`, canonical. */
  readonly principal: string;
  /** The standard address part, canonical. */
  readonly address: string;
  readonly contractName: string | null;
  readonly network: Network;
  readonly kind: PrincipalKind;
  readonly version: number;
  readonly hash160: string;
}

/**
 * How the address as typed differs from its canonical spelling, spaces aside: c32 reads lower case as capitals and
 * O, I and L as the digits 0, 1 and 1, so such a spelling is the same address, written otherwise.
 */
export interface Respelling {
  /** Letters typed in lower case. */
  readonly lowercase: boolean;
  /** O, I or L typed where the address has the digit they read as (1-based positions in the address part). */
  readonly lookalikes: readonly { readonly char: string; readonly position: number; readonly digit: '0' | '1' }[];
}

/** A principal read from what a user typed: its canonical form, and how the typing differed from it (or null). */
export type TypedPrincipal = Principal & { readonly respelled: Respelling | null };

export interface InvalidCharacter {
  readonly char: string;
  /** 1-based, counted in the trimmed input. */
  readonly position: number;
}

export type AddressError =
  | { readonly kind: 'empty' }
  | { readonly kind: 'foreign'; readonly chain: ForeignChain }
  | { readonly kind: 'name'; readonly name: string }
  | { readonly kind: 'prefix'; readonly found: string }
  | { readonly kind: 'characters'; readonly invalid: readonly InvalidCharacter[] }
  | { readonly kind: 'length'; readonly length: number }
  | { readonly kind: 'version'; readonly prefix: string; readonly version: number }
  | { readonly kind: 'checksum'; readonly length: number }
  | { readonly kind: 'hash-length'; readonly bytes: number }
  | { readonly kind: 'network'; readonly expected: Network; readonly actual: Network }
  | ({ readonly kind: 'contract-name'; readonly name: string } & ContractNameProblem);

/** The c32 alphabet. Input may also use O, I and L, which c32 reads as 0, 1 and 1; U is never valid. */
const C32_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const C32_LENIENT = /^[0-9A-TV-Z]$/i;
/** How long the first part of a dotted input must be to be read as an address rather than a BNS name. */
const NAME_PART_MAX = MIN_ADDRESS_LENGTH - 1;
/** A BNS name (`name.namespace`, or `sub.name.namespace`): only these are offered a name lookup. */
const BNS_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+){1,2}$/i;

const VERSIONS: Record<number, { network: Network; kind: 'single-sig' | 'multi-sig' }> = {
  22: { network: 'mainnet', kind: 'single-sig' },
  20: { network: 'mainnet', kind: 'multi-sig' },
  26: { network: 'testnet', kind: 'single-sig' },
  21: { network: 'testnet', kind: 'multi-sig' },
};

export interface ParseOptions {
  /** When set, an address of the other network is an error. */
  readonly network?: Network | undefined;
}

/**
 * Reads what a user typed or pasted as a Stacks principal. Never throws: every input gets either the canonical
 * principal or an error saying what is wrong.
 */
export function parsePrincipal(input: string, options: ParseOptions = {}): Result<TypedPrincipal, AddressError> {
  const text = input.trim();
  if (text.length === 0) return err({ kind: 'empty' });
  const foreign = recogniseForeignAddress(text);
  if (foreign) return err({ kind: 'foreign', chain: foreign });

  const dot = text.indexOf('.');
  const addressPart = dot < 0 ? text : text.slice(0, dot);
  if (dot >= 0 && addressPart.length <= NAME_PART_MAX && BNS_NAME.test(text)) {
    return err({ kind: 'name', name: text.toLowerCase() });
  }

  const address = parseStandardAddress(addressPart);
  if (!address.ok) return address;
  const { network, version, hash160 } = address.value;
  if (options.network && options.network !== network) {
    return err({ kind: 'network', expected: options.network, actual: network });
  }
  const respelled = respelling(addressPart);
  if (dot < 0) return ok({ ...address.value, contractName: null, respelled });

  const contractName = text.slice(dot + 1);
  const problem = checkContractName(contractName);
  if (problem) return err({ kind: 'contract-name', name: contractName, ...problem });
  const canonical = address.value.address;
  return ok({
    principal: `${canonical}.${contractName}`,
    address: canonical,
    contractName,
    network,
    kind: 'contract',
    version,
    hash160,
    respelled,
  });
}

/** How a valid address part was typed otherwise than canonically, or null where it was typed as it is written. */
function respelling(typed: string): Respelling | null {
  const lowercase = /[a-z]/.test(typed);
  const lookalikes = [...typed].flatMap((char, index) =>
    /^[OIL]$/i.test(char)
      ? [{ char, position: index + 1, digit: /^o$/i.test(char) ? ('0' as const) : ('1' as const) }]
      : [],
  );
  return lowercase || lookalikes.length > 0 ? { lowercase, lookalikes } : null;
}

type StandardAddress = Omit<Principal, 'contractName'>;

function parseStandardAddress(text: string): Result<StandardAddress, AddressError> {
  const first = [...text][0] ?? '';
  if (first.toUpperCase() !== 'S') return err({ kind: 'prefix', found: first });

  const invalid = [...text]
    .map((char, index) => ({ char, position: index + 1 }))
    .filter(({ char }) => !C32_LENIENT.test(char));
  if (invalid.length > 0) return err({ kind: 'characters', invalid });

  if (text.length > MAX_ADDRESS_LENGTH || text.length < MIN_ADDRESS_LENGTH) {
    return err({ kind: 'length', length: text.length });
  }
  const normalised = text.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  const version = C32_ALPHABET.indexOf(normalised[1] ?? '');
  const known = VERSIONS[version];
  if (!known) return err({ kind: 'version', prefix: text.slice(0, 2).toUpperCase(), version });

  let hash160: string;
  try {
    [, hash160] = c32addressDecode(normalised);
  } catch {
    return err({ kind: 'checksum', length: normalised.length });
  }
  if (hash160.length !== 40) return err({ kind: 'hash-length', bytes: Math.ceil(hash160.length / 2) });
  const canonical = c32address(version, hash160);
  return ok({ principal: canonical, address: canonical, network: known.network, kind: known.kind, version, hash160 });
}
