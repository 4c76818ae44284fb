import { formatUnits } from './amount.ts';
import type { AssetChange, TokenMetadata } from './snapshot.ts';

/** "250 WGOLD", or the raw base units and the asset's name when its metadata is unknown. */
export function formatToken(amount: bigint, assetIdentifier: string, metadata: TokenMetadata | undefined): string {
  if (metadata) return `${formatUnits(amount, metadata.decimals)} ${metadata.symbol}`;
  return `${amount.toLocaleString('en-US')} ${assetIdentifier.split('::')[1] ?? assetIdentifier}`;
}

/** The collection's name, from its asset identifier. */
export const collectionName = (assetIdentifier: string): string => assetIdentifier.split('::')[1] ?? assetIdentifier;

/** "Received 250 WGOLD", "Sent 1 owl". */
export function describeAssetChange(change: AssetChange, metadata: TokenMetadata | undefined): string {
  const magnitude = change.net < 0n ? -change.net : change.net;
  const what =
    change.type === 'ft'
      ? formatToken(magnitude, change.assetIdentifier, metadata)
      : `${magnitude} ${collectionName(change.assetIdentifier)}`;
  return `${change.net < 0n ? 'Sent' : 'Received'} ${what}`;
}
