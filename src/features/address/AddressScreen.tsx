import { useEffect, useState } from 'react';
import { parsePrincipal } from '../../domain/address.ts';
import { describeAddressError, KIND_LABEL } from '../../domain/address-messages.ts';
import { indexOfPrincipal } from '../../domain/watchlist.ts';
import { addressPath, navigate } from '../../app/router.ts';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { ActivityList } from './ActivityList.tsx';
import { useRuntimeConfig } from '../../app/use-runtime-config.ts';
import { explorerUrl } from '../../domain/explorer.ts';
import { BalanceCard } from './BalanceCard.tsx';
import { BalanceChart } from './BalanceChart.tsx';
import { QrCode } from './QrCode.tsx';
import { HoldingsCard } from './HoldingsCard.tsx';
import { AddressAlerts } from '../alerts/AddressAlerts.tsx';
import { useScrollToTransaction } from './use-scroll-to-transaction.ts';

export function AddressScreen({ input }: { input: string }) {
  const state = useWatchlistState();
  const controller = useWatchlistController();
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  const config = useRuntimeConfig();
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

  return (
    <section className="address-screen">
      <h1>{entry?.label || entry?.name || 'Address'}</h1>
      {entry?.name && <p className="bns-name">{entry.name}</p>}
      <p>
        <code className="principal principal-large">{principal.principal}</code>{' '}
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
      <div className="address-tools">
        <QrCode text={principal.principal} />
        <a
          href={explorerUrl(
            principal.principal,
            principal.network,
            principal.network === 'testnet' ? (config?.devnet?.url ?? null) : null,
          )}
          target="_blank"
          rel="noopener noreferrer"
        >
          Open in the explorer
        </a>
      </div>
      <dl className="facts">
        <dt>Network</dt>
        <dd>
          <NetworkBadge network={principal.network} />
        </dd>
        <dt>Kind</dt>
        <dd>{KIND_LABEL[principal.kind]}</dd>
        <dt>Version byte</dt>
        <dd>{principal.version}</dd>
        <dt>Watching</dt>
        <dd>{entry ? `since ${new Date(entry.addedAt).toLocaleString()}` : 'no'}</dd>
      </dl>
      {!entry && state.status === 'ready' && (
        <button type="button" className="primary" onClick={() => controller.add(principal, '')}>
          Watch
        </button>
      )}
      {entry && (
        <>
          <BalanceCard principal={principal.principal} />
          <BalanceChart principal={principal.principal} />
          <HoldingsCard principal={principal.principal} />
          <ActivityList principal={principal.principal} network={principal.network} />
          <AddressAlerts principal={principal.principal} network={principal.network} />
        </>
      )}
    </section>
  );
}
