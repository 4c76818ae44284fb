import { useEffect } from 'react';
import { monitorCommands } from '../../app/monitor-commands.ts';
import { useOnline } from '../../app/pwa/use-online.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useTokenCatalog } from '../../app/token-context.tsx';
import { collectionName, formatToken } from '../../domain/asset-text.ts';

/** Two letters for a token without an icon: its symbol's, else its name's. */
const initials = (text: string): string =>
  text
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, 2)
    .toUpperCase() || '?';

/** Tokens and NFTs by collection; asked for when the page opens. Offline, never loaded says so (no endless wait). */
export function HoldingsCard({ principal }: { principal: string }) {
  const snapshot = useSnapshot(principal);
  const catalog = useTokenCatalog();
  const online = useOnline();
  useEffect(() => monitorCommands.loadHoldings(principal), [principal]);
  const holdings = snapshot?.holdings;
  return (
    <section className="card" aria-labelledby="holdings-heading">
      <h2 id="holdings-heading">Tokens and NFTs</h2>
      {!holdings ? (
        <p className="note">
          {online
            ? 'Loading tokens and NFTs…'
            : 'Offline: the tokens and NFTs of this address were never loaded on this device. They load when the app is back online.'}
        </p>
      ) : holdings.tokens.size === 0 && holdings.nfts.size === 0 ? (
        <p className="note">No tokens or NFTs.</p>
      ) : (
        <ul className="holdings">
          {[...holdings.tokens].map(([asset, amount]) => {
            const metadata = catalog.get(asset);
            const name = metadata?.name ?? collectionName(asset);
            return (
              <li key={asset} className="holding" title={asset}>
                <span className="token-mark" aria-hidden="true">
                  {initials(metadata?.symbol ?? name)}
                </span>
                <span className="holding-name">{name}</span>
                <span className="figure holding-amount">{formatToken(amount, asset, metadata)}</span>
              </li>
            );
          })}
          {[...holdings.nfts].map(([asset, count]) => (
            <li key={asset} className="holding" title={asset}>
              <span className="token-mark nft-mark" aria-hidden="true">
                {initials(collectionName(asset))}
              </span>
              <span className="holding-name">{collectionName(asset)} (NFT)</span>
              <span className="figure holding-amount">{count}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
