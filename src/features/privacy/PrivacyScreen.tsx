import './privacy.css';
import { useId, useState } from 'react';
import { usePrivacyRecord } from '../../app/privacy-context.tsx';
import { useCurrentHosts } from '../../app/use-current-hosts.ts';
import { useRelay } from '../../app/relay-context.tsx';
import { usePushServiceHost } from '../../app/use-push-service.ts';
import { useNow } from '../../app/use-now.ts';
import { useNameBook } from '../../app/name-context.tsx';
import { useWatchlistState } from '../../app/watchlist-context.tsx';
import { knownName } from '../../domain/watch/entry-name.ts';
import { hostRole, roleRank } from '../../domain/privacy/disclosure-text.ts';
import { errorMessage } from '../../domain/error-message.ts';
import { HostCard } from './HostCard.tsx';

type Clearing = 'idle' | 'confirm' | 'cleared' | { readonly error: string };

/** "Who knows what": every host this device contacted, and which watched addresses each could have learned. */
export function PrivacyScreen() {
  const record = usePrivacyRecord();
  const current = useCurrentHosts();
  const watch = useWatchlistState();
  const book = useNameBook();
  const now = useNow();
  const relayOn = useRelay()?.settings.enabled ?? false;
  const pushHost = usePushServiceHost(relayOn);
  const [clearing, setClearing] = useState<Clearing>('idle');
  const pushId = useId();
  const entries = watch.status === 'ready' ? watch.entries : [];
  // Each address as the list names it: its label, else its BNS name.
  const labels = new Map(entries.map((entry) => [entry.principal, knownName(entry, book?.get(entry.principal))]));
  const ranks = new Map(entries.map((entry, index) => [entry.principal, index]));
  const labelOf = (principal: string) => labels.get(principal) ?? null;
  const rankOf = (principal: string) => ranks.get(principal) ?? entries.length;
  const hosts = (record?.hosts ?? []).map((host) => ({ host, role: current ? hostRole(host, current) : null }));
  hosts.sort((a, b) => roleRank(a.role) - roleRank(b.role));

  async function clear() {
    try {
      await record?.clear();
      setClearing('cleared');
    } catch (error) {
      setClearing({ error: errorMessage(error) });
    }
  }

  return (
    <section className="privacy">
      <h1>Who knows what</h1>
      <p>
        Stacks Watch has no server of its own and sends no telemetry. It asks only the hosts set in Settings: each
        network’s node and, if you turn it on, a relay. Here is what each of them could have learned from this device,
        recorded as each request was sent. This record stays on this device.
      </p>
      <p className="note">
        Not listed: the app’s own files and settings, fetched from this app’s own site ({window.location.host}).
        Whatever else that site was sent (a relay or a node it also runs) is listed below like any other host’s.
        Explorer links open their site only when you follow them.
      </p>
      <p className="note privacy-names">
        To name the other party of a transaction (“From muneeb.btc” rather than an address), the app asks the node for
        that address’s BNS name. So the node also learns the addresses your watched ones deal with, including those you
        do not watch.
      </p>
      {hosts.length === 0 ? (
        <p className="empty">No other host has been contacted from this device since the record began.</p>
      ) : (
        hosts.map(({ host, role }) => (
          <HostCard key={host.origin} record={host} role={role} labelOf={labelOf} rankOf={rankOf} now={now} />
        ))
      )}
      {relayOn && (
        <section className="card host-card push-service" aria-labelledby={pushId}>
          <h2 id={pushId} className="host-name">
            {pushHost ?? 'Your browser’s push service'}
          </h2>
          <p className="host-role">Push service of this browser</p>
          <p className="host-learned">
            It carries the relay’s alerts to this device. Stacks Watch never contacts it: the relay sends to it, and
            your browser keeps a connection to it. It sees your IP address but none of your addresses: each alert is
            encrypted for this browser alone.
          </p>
        </section>
      )}
      <div className="privacy-clear" aria-live="polite">
        {clearing === 'confirm' ? (
          <>
            <p>Clear the whole record? Hosts keep what they were told; only this device forgets it.</p>
            <div className="button-row">
              <button type="button" className="danger" onClick={() => void clear()}>
                Clear it
              </button>
              <button type="button" onClick={() => setClearing('idle')}>
                Keep it
              </button>
            </div>
          </>
        ) : (
          <button type="button" disabled={hosts.length === 0} onClick={() => setClearing('confirm')}>
            Clear this record
          </button>
        )}
        {clearing === 'cleared' && <p className="note">Cleared. Requests from now on are recorded afresh.</p>}
        {typeof clearing === 'object' && (
          <p role="alert" className="error">
            The record could not be cleared: {clearing.error}
          </p>
        )}
      </div>
    </section>
  );
}
