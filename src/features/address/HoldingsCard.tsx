import { useEffect } from 'react';
import { monitorCommands } from '../../app/monitor-commands.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useTokenCatalog } from '../../app/token-context.tsx';
import { collectionName, formatToken } from '../../domain/asset-text.ts';

/** Tokens and NFTs by collection; asked for when the page opens. */
export function HoldingsCard({ principal }: { principal: string }) {
  const snapshot = useSnapshot(principal);
  const catalog = useTokenCatalog();
  useEffect(() => monitorCommands.loadHoldings(principal), [principal]);
  const holdings = snapshot?.holdings;
  return (
    <section aria-labelledby="holdings-heading">
      <h2 id="holdings-heading">Tokens and NFTs</h2>
      {!holdings ? (
        <p className="note">Loading tokens and NFTs…</p>
      ) : holdings.tokens.size === 0 && holdings.nfts.size === 0 ? (
        <p className="note">No tokens or NFTs.</p>
      ) : (
        <dl className="facts holdings">
          {[...holdings.tokens].map(([asset, amount]) => (
            <div key={asset} className="holding">
              <dt title={asset}>{catalog.get(asset)?.name ?? asset.split('::')[1]}</dt>
              <dd>{formatToken(amount, asset, catalog.get(asset))}</dd>
            </div>
          ))}
          {[...holdings.nfts].map(([asset, count]) => (
            <div key={asset} className="holding">
              <dt title={asset}>{collectionName(asset)} (NFT)</dt>
              <dd>{count}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
