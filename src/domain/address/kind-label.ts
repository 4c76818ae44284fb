import type { PrincipalKind } from './address-shape.ts';

/* Apart from the error words (address-messages.ts): a watch-list row shows the kind, and the first screen need not
   carry every way an address can be mistyped. */
export const KIND_LABEL: Record<PrincipalKind, string> = {
  'single-sig': 'single-sig',
  'multi-sig': 'multi-sig',
  contract: 'contract',
};

/** What kind of address it is, in words a newcomer knows: the "Address type" of the address page's facts. */
export const ADDRESS_TYPE: Record<PrincipalKind, string> = {
  'single-sig': 'Standard (single-signature)',
  'multi-sig': 'Multi-signature (several keys sign together)',
  contract: 'Smart contract',
};

/** The exact encoding beside those words, for whoever needs it: "SP prefix · version byte 22". */
export const addressEncoding = (principal: { readonly address: string; readonly version: number }): string =>
  `${principal.address.slice(0, 2)} prefix · version byte ${principal.version}`;
