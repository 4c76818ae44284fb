import { parsePrincipal } from './address.ts';
import { describeAddressError } from './address-messages.ts';
import type { ReadPrincipal } from './address-shape.ts';

/** A principal as a person or a file wrote it: the full parser (checksum, canonical form) and its messages. */
export const readTypedPrincipal: ReadPrincipal = (text) => {
  const parsed = parsePrincipal(text);
  if (!parsed.ok)
    return {
      ok: false,
      error: `“${truncate(text)}” is not a valid Stacks address. ${describeAddressError(parsed.error)}`,
    };
  const { principal, network, kind } = parsed.value;
  return { ok: true, value: { principal, network, kind } };
};

const truncate = (text: string): string => (text.length > 48 ? `${text.slice(0, 47)}…` : text);
