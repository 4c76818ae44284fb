/** Recognises addresses of other chains that users paste by mistake. Shape only: no checksum is verified. */
export type ForeignChain = 'bitcoin' | 'ethereum';

const BITCOIN_BECH32 = /^(bc|tb|bcrt)1[02-9ac-hj-np-z]{6,87}$/i;
const BITCOIN_BASE58 = /^[13mn2][1-9A-HJ-NP-Za-km-z]{25,34}$/;
const ETHEREUM = /^0x[0-9a-fA-F]{40}$/;

export function recogniseForeignAddress(text: string): ForeignChain | null {
  if (ETHEREUM.test(text)) return 'ethereum';
  if (BITCOIN_BECH32.test(text) || BITCOIN_BASE58.test(text)) return 'bitcoin';
  return null;
}
