import './address.css';
import './address-activity.css';
import './address-alert-rules.css';
import './tx-detail.css';
import './address-notes.css';
import './address-phone.css';
import { useEffect, useState } from 'react';
import { parsePrincipal } from '../../domain/address/address.ts';
import { describeAddressError } from '../../domain/address/address-messages.ts';
import { marksNetwork, networksOf } from '../../domain/network.ts';
import { indexOfPrincipal } from '../../domain/watch/watchlist.ts';
import { addressPath, navigate } from '../../app/router.ts';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { useMedia } from '../../ui/use-media.ts';
import { AddressAlerts } from '../alerts/AddressAlerts.tsx';
import { ExportDialog } from '../history/ExportDialog.tsx';
import { ActivityList } from './ActivityList.tsx';
import { AddressFacts } from './AddressFacts.tsx';
import { BalanceCard } from './BalanceCard.tsx';
import { BalanceChart } from './BalanceChart.tsx';
import { HoldingsCard } from './HoldingsCard.tsx';
import { StakingCard } from './StakingCard.tsx';
import { StaleNote } from './StaleNote.tsx';
import { useScrollToTransaction } from './use-scroll-to-transaction.ts';

/**
 * One address: its balance and chart, tokens and facts; its alert rules (folded) above its activity, beside the rest
 * on a wide screen, after it on a phone.
 */
export function AddressScreen({ input }: { input: string }) {
  const state = useWatchlistState();
  const controller = useWatchlistController();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const installed =
    useMedia('(display-mode: standalone)') || (navigator as Navigator & { standalone?: boolean }).standalone === true;
  const parsed = parsePrincipal(input);
  const canonical = parsed.ok ? parsed.value.principal : null;
  useScrollToTransaction();

  useEffect(() => {
    if (canonical && canonical !== input) navigate(addressPath(canonical), { replace: true });
  }, [canonical, input]);

  if (!parsed.ok) {
    return (
      <section className="address-screen">
        <h1>Not a Stacks address</h1>
        <p role="alert" className="error">
          {describeAddressError(parsed.error)}
        </p>
      </section>
    );
  }
  const principal = parsed.value;
  const entries = state.status === 'ready' ? state.entries : [];
  const entry = entries[indexOfPrincipal(entries, principal.principal)];
  // The facts below always name the network; the header marks it only where it tells this address apart.
  const markNetwork = marksNetwork(principal.network, networksOf([...entries, principal]));

  return (
    <section className="address-screen">
      <header className="address-head">
        {/* An installed app has no browser Back button: this is its way back (a wide screen has the list beside). */}
        {installed && (
          <a
            className="back-link"
            href="/"
            onClick={(event) => {
              event.preventDefault();
              navigate('/');
            }}
          >
            <span aria-hidden="true">‹</span>Watch list
          </a>
        )}
        <h1>{entry?.label || entry?.name || 'Address'}</h1>
        {entry?.name && <p className="bns-name">{entry.name}</p>}
        <p className="address-line">
          {markNetwork && <NetworkBadge network={principal.network} />}{' '}
          <code className="principal">{principal.principal}</code>
          <button
            type="button"
            onClick={() =>
              navigator.clipboard.writeText(principal.principal).then(
                () => setCopied('copied'),
                () => setCopied('failed'),
              )
            }
          >
            {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Copy failed: select the address instead' : 'Copy'}
          </button>
        </p>
        {entry && (
          <ExportDialog
            addresses={[{ network: principal.network, principal: principal.principal }]}
            subject={entry.label || entry.name || principal.principal}
          />
        )}
        {!entry && state.status === 'ready' && (
          <button type="button" className="primary" onClick={() => controller.add(principal, '')}>
            Watch
          </button>
        )}
      </header>
      {entry && <StaleNote principal={principal.principal} network={principal.network} />}
      {/* On a phone: the balance, then what happened, then the facts; on a wide screen the facts go under the
          balance and the activity takes the second column. */}
      <div className={entry ? 'address-grid watched' : 'address-grid'}>
        {entry && (
          <div className="address-column address-main">
            <BalanceCard principal={principal.principal} network={principal.network} />
            <StakingCard principal={principal.principal} network={principal.network} />
            <BalanceChart principal={principal.principal} />
            <HoldingsCard principal={principal.principal} network={principal.network} />
          </div>
        )}
        {entry && (
          <div className="address-column address-side">
            <AddressAlerts principal={principal.principal} network={principal.network} />
            <ActivityList principal={principal.principal} network={principal.network} />
          </div>
        )}
        <div className="address-column address-about">
          <AddressFacts principal={principal} entry={entry} />
        </div>
      </div>
    </section>
  );
}
