import { useRuntimeConfig } from '../../app/use-runtime-config.ts';
import type { Principal } from '../../domain/address/address.ts';
import { ADDRESS_TYPE, addressEncoding } from '../../domain/address/kind-label.ts';
import { explorerUrl } from '../../domain/explorer.ts';
import type { WatchEntry } from '../../domain/watch/watch-entry.ts';
import { exactTime } from '../../domain/text/time-text.ts';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { QrCode } from './QrCode.tsx';

/** What the address is (network, type, its encoding as a detail), its QR code and the explorer link. */
export function AddressFacts({ principal, entry }: { principal: Principal; entry: WatchEntry | undefined }) {
  const config = useRuntimeConfig();
  const devnet = principal.network === 'testnet' ? (config?.devnet?.url ?? null) : null;
  return (
    <section className="card address-facts" aria-labelledby="facts-heading">
      <h2 id="facts-heading">About this address</h2>
      <div className="facts-layout">
        <QrCode text={principal.principal} />
        <div>
          <dl className="facts">
            <dt>Network</dt>
            <dd>
              <NetworkBadge network={principal.network} />
            </dd>
            <dt>Address type</dt>
            <dd>
              {ADDRESS_TYPE[principal.kind]}
              <span className="detail-line">{addressEncoding(principal)}</span>
            </dd>
            <dt>Watching</dt>
            <dd>{entry ? `since ${exactTime(entry.addedAt)}` : 'no'}</dd>
          </dl>
          <a
            href={explorerUrl(principal.principal, principal.network, devnet)}
            target="_blank"
            rel="noopener noreferrer"
          >
            Open in the explorer
          </a>
        </div>
      </div>
    </section>
  );
}
