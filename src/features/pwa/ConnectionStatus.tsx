import './connection-status.css';
import { useCallback, useId, useRef, useState } from 'react';
import { headerWords, panelWords, summariseConnections } from '../../app/connection-summary.ts';
import { useStatuses } from '../../app/connection-status.ts';
import { useOnline } from '../../app/pwa/use-online.ts';
import { useNowCounting } from '../../app/use-now.ts';
import { NETWORK_LABEL } from '../../domain/network.ts';
import { nextTryWords } from '../../domain/text/node-trouble.ts';
import { relativeTime } from '../../domain/text/time-text.ts';
import { useDismiss } from '../../ui/use-dismiss.ts';

// Paragraphs, not a list: on the home screen, list items are the watched addresses.
/** One dot for every followed network (the worst state wins); pressed, it tells each network's node and state. */
export function ConnectionStatus() {
  const online = useOnline();
  const summary = summariseConnections(useStatuses(), online);
  // A next try counts down by the second while one waits.
  const now = useNowCounting(
    summary?.retryAt != null || (online && (summary?.networks.some(({ status }) => status.retryAt) ?? false)),
  );
  const [open, setOpen] = useState(false);
  const panel = useId();
  const button = useRef<HTMLButtonElement>(null);
  const details = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const [inside] = useState(() => [button, details, backdrop]);
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, inside, button);
  if (!summary) return null;
  const word = headerWords(summary, now);
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`quiet connection-indicator connection-${summary.feed}`}
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen(!open)}
      >
        <span className="visually-hidden">Connection: </span>
        <span className="connection-word">{word}</span>
      </button>
      {/* A tap beside the open panel lands here and only closes it, never on the row or link underneath. */}
      {open && <div ref={backdrop} className="connection-backdrop" onClick={close} />}
      <div ref={details} id={panel} className="connection-details card" hidden={!open}>
        <div className="connection-list">
          {/* On a phone the open panel covers the offline bar under the header: it says what the bar said. */}
          {!online && <p className="connection-offline-note">This device is offline: no node can be asked.</p>}
          {summary.networks.map((connection) => {
            const { network, status } = connection;
            return (
              <p key={network}>
                <strong>{NETWORK_LABEL[network]}</strong> {panelWords(connection)} ·{' '}
                <span className="principal">{status.node}</span>
                {status.lastEventAt ? ` · last event ${relativeTime(status.lastEventAt, now)}` : ''}
                {/* Offline, the node's last failure is the device's, not the node's. */}
                {online && status.problem ? (
                  <span className="error">
                    {status.retryAt
                      ? `${status.problem.replace(/\.$/, '')}; ${nextTryWords(status.retryAt, now)}.`
                      : status.problem}
                  </span>
                ) : null}
                {status.setAside ? <span className="error set-aside">{status.setAside}</span> : null}
              </p>
            );
          })}
        </div>
      </div>
    </>
  );
}
