import type { PrincipalKind } from './address-shape.ts';

/* Apart from the error words (address-messages.ts): a watch-list row shows the kind, and the first screen need not
   carry every way an address can be mistyped. */
export const KIND_LABEL: Record<PrincipalKind, string> = {
  'single-sig': 'single-sig',
  'multi-sig': 'multi-sig',
  contract: 'contract',
};
