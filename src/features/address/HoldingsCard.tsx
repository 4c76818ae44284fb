import { useEffect, useState } from 'react';
import { monitorCommands } from '../../app/monitor-commands.ts';
import { useStatuses } from '../../app/connection-status.ts';
import { useOnline } from '../../app/pwa/use-online.ts';
import { NodeTroubleLine } from '../pwa/NodeTroubleLine.tsx';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useTokenCatalog } from '../../app/token-context.tsx';
import { collectionName, formatToken } from '../../domain/text/asset-text.ts';
import { isSbtc, SBTC_SYMBOL } from '../../domain/state/staking.ts';
import { looksLikeLink } from '../../domain/alerts/token-trust.ts';
import type { Network } from '../../domain/network.ts';
import { AUTO_JUDGE_TRANSACTIONS, useTokenJudgement, type TokenJudging } from './use-token-judgement.ts';

/** Two letters for a token without an icon: its symbol's, else its name's. */
const initials = (text: string): string =>
  text
    .replace(/[^a-z0-9]/gi, '')
    .slice(0, 2)
    .toUpperCase() || '?';

interface Holding {
  readonly asset: string;
  readonly name: string;
  readonly mark: string;
  readonly amount: string;
  readonly nft: boolean;
}

/**
 * Tokens and NFTs by collection; asked for when the page opens. Offline, never loaded says so (no endless wait).
 * What the address never asked for (airdrop spam) is folded away behind a button, and marked when shown, once its
 * whole history was read (until then the card says so: the same address reads the same on every device); a name
 * that reads as a web address is marked wherever it is shown.
 */
export function HoldingsCard({ principal, network }: { principal: string; network: Network }) {
  const snapshot = useSnapshot(principal);
  const catalog = useTokenCatalog();
  const online = useOnline();
  const status = useStatuses()[network];
  const troubled = status !== undefined && status.problem !== null && status.feed !== 'live';
  const [showUnsolicited, setShowUnsolicited] = useState(false);
  useEffect(() => monitorCommands.loadHoldings(principal), [principal]);
  const holdings = snapshot?.holdings;
  const judging = useTokenJudgement(network, principal, snapshot);
  const unsolicited = judging.judgement.judged ? judging.judgement.unsolicited : new Set<string>();
  const all: Holding[] = holdings
    ? [
        ...[...holdings.tokens].map(([asset, amount]) => {
          const metadata = catalog.get(asset);
          const name = metadata?.name ?? (isSbtc(asset) ? SBTC_SYMBOL : collectionName(asset));
          return {
            asset,
            name,
            mark: metadata?.symbol ?? name,
            amount: formatToken(amount, asset, metadata),
            nft: false,
          };
        }),
        ...[...holdings.nfts].map(([asset, count]) => {
          const name = collectionName(asset);
          return { asset, name: `${name} (NFT)`, mark: name, amount: String(count), nft: true };
        }),
      ]
    : [];
  const hidden = all.filter((holding) => unsolicited.has(holding.asset)).length;
  const shown = showUnsolicited ? all : all.filter((holding) => !unsolicited.has(holding.asset));
  return (
    <section className="card" aria-labelledby="holdings-heading">
      <h2 id="holdings-heading">Tokens and NFTs</h2>
      {!holdings ? (
        <p className="note">
          {!online
            ? 'Offline: the tokens and NFTs of this address were never loaded on this device. They load when the app is back online.'
            : troubled
              ? 'Not loaded: they load once the node answers. '
              : 'Loading tokens and NFTs…'}
          <NodeTroubleLine network={network} />
        </p>
      ) : all.length === 0 ? (
        <p className="note">No tokens or NFTs.</p>
      ) : shown.length === 0 ? (
        <p className="note">Only tokens it never asked for.</p>
      ) : (
        <ul className="holdings">
          {shown.map((holding) => (
            <li key={holding.asset} className="holding" title={holding.asset}>
              <span className={holding.nft ? 'token-mark nft-mark' : 'token-mark'} aria-hidden="true">
                {initials(holding.mark)}
              </span>
              <span className="holding-name">
                {holding.name}
                {unsolicited.has(holding.asset) && <span className="badge badge-warning">Unsolicited</span>}
                {looksLikeLink(holding.name) && (
                  <span className="badge badge-warning">Name looks like a link: a common scam</span>
                )}
              </span>
              <span className="figure holding-amount">{holding.amount}</span>
            </li>
          ))}
        </ul>
      )}
      {all.length > 0 && !judging.judgement.judged && <NotJudged judging={judging} />}
      {hidden > 0 && (
        <button
          type="button"
          className="link-button holdings-toggle"
          onClick={() => setShowUnsolicited(!showUnsolicited)}
        >
          {showUnsolicited
            ? 'Hide what it never asked for'
            : `Show ${hidden} unsolicited ${hidden === 1 ? 'token' : 'tokens'} (sent without being asked: often scams)`}
        </button>
      )}
    </section>
  );
}

/** Why no token is marked yet: the history it is judged from is still being read, or waits for the user. */
function NotJudged({ judging: { view, readAll } }: { judging: TokenJudging }) {
  const total = view.progress?.nodeTotal ?? null;
  const read = view.progress?.kept ?? 0;
  const waiting =
    !view.reading && (view.problem !== null || view.busyElsewhere || (total ?? 0) > AUTO_JUDGE_TRANSACTIONS);
  const counted = total === null ? '' : ` (${Math.min(read, total)} of ${total} transactions read)`;
  return (
    <p className="note token-judgement" role="status">
      {view.problem
        ? `Not checked yet for tokens sent without being asked (often scams): its history could not be read. ${view.problem}.`
        : `Not checked yet for tokens sent without being asked (often scams): that takes its whole history${counted}.`}{' '}
      {waiting && (
        <button type="button" className="link-button" onClick={readAll}>
          {view.problem ? 'Try again' : 'Read its whole history'}
        </button>
      )}
    </p>
  );
}
