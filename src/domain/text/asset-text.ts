import { formatUnits, grouped } from '../amount.ts';
import type { TokenMetadata } from '../state/snapshot.ts';
import { formatSbtc, isSbtc } from '../state/staking.ts';
import { looksLikeLink } from '../alerts/token-trust.ts';

/** Said where a token's symbol was withheld because it reads as a web address. */
export const LINK_LIKE_SYMBOL = 'its symbol looks like a link: a common scam';

/** The asset's own name inside its contract: `gold` of `SP….watch-gold::gold`. */
export const assetName = (assetIdentifier: string): string => assetIdentifier.split('::')[1] ?? assetIdentifier;

/**
 * "250.00 WGOLD" with the token's decimals and symbol; while they are unknown, the base units said as such
 * ("25,000,000,000 base units of gold"), never a raw number passed off as the amount. A symbol its author made read
 * as a web address (the airdrop lure) is never shown: the contract's own asset name stands in, marked.
 */
export function formatToken(amount: bigint, assetIdentifier: string, metadata: TokenMetadata | undefined): string {
  // sBTC reads the same everywhere, with all its decimals, whether or not the node's metadata was read yet.
  if (isSbtc(assetIdentifier)) return formatSbtc(amount);
  if (metadata && looksLikeLink(metadata.symbol))
    return `${formatUnits(amount, metadata.decimals)} ${assetName(assetIdentifier)} (${LINK_LIKE_SYMBOL})`;
  if (metadata) return `${formatUnits(amount, metadata.decimals)} ${metadata.symbol}`;
  return `${grouped(amount)} base unit${amount === 1n ? '' : 's'} of ${assetName(assetIdentifier)}`;
}

/** The collection's name, from its asset identifier. */
export const collectionName = assetName;

/** "2 owl", or "owl u12" when one NFT of known id moved. */
export function formatNfts(count: bigint, assetIdentifier: string, ids: readonly string[] = []): string {
  if (count === 1n && ids.length === 1) return `${collectionName(assetIdentifier)} ${nftIdText(ids[0]!)}`;
  return `${count} ${collectionName(assetIdentifier)}`;
}

/**
 * An NFT's id as people write it, from its Clarity value: `u15` and `15` are "#15", `"gold-1"` is "gold-1"; any
 * other value (a buffer, a tuple) is shown as the node wrote it.
 */
export function nftIdText(repr: string): string {
  if (/^u?-?\d+$/.test(repr)) return `#${repr.replace(/^u/, '')}`;
  const text = /^u?"(.*)"$/.exec(repr);
  return text ? text[1]! : repr;
}
