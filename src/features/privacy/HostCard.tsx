import { useId, useState } from 'react';
import { shortPrincipal } from '../../domain/text/activity-text.ts';
import type { HostRecord, Sighting } from '../../domain/privacy/disclosure-record.ts';
import {
  neverReachedText,
  purposesText,
  roleTitle,
  timesText,
  whatItLearned,
  type HostRole,
} from '../../domain/privacy/disclosure-text.ts';
import { relativeTime } from '../../domain/text/time-text.ts';
import { RelativeTime } from '../../ui/RelativeTime.tsx';

/** Addresses listed at first under a host; the rest on request. */
const FIRST_SHOWN = 20;

export interface HostCardProps {
  readonly record: HostRecord;
  /** Null until the app's settings are read. */
  readonly role: HostRole | null;
  /** A watched address's label or BNS name, '' when it has none, null when it is no longer watched. */
  readonly labelOf: (principal: string) => string | null;
  /** Where an address stands in the watch list (the user's own order); one no longer watched goes last. */
  readonly rankOf: (principal: string) => number;
  readonly now: number;
}

/** "just now", or "first 2 h ago · last just now" when the two differ. */
function When({ sighting, now, separator }: { sighting: Sighting; now: number; separator: string }) {
  if (relativeTime(sighting.first, now) === relativeTime(sighting.last, now))
    return <RelativeTime ms={sighting.last} now={now} />;
  return (
    <>
      <RelativeTime ms={sighting.first} now={now} prefix="first " />
      {separator}
      <RelativeTime ms={sighting.last} now={now} prefix="last " />
    </>
  );
}

/** One host: what it is, the sentence saying what it could learn, and each address it was told, first and last. */
export function HostCard({ record, role, labelOf, rankOf, now }: HostCardProps) {
  const [all, setAll] = useState(false);
  const headingId = useId();
  const host = new URL(record.origin).host;
  const addresses = Object.entries(record.addresses).sort(
    ([a, seenA], [b, seenB]) => rankOf(a) - rankOf(b) || seenB.last - seenA.last || a.localeCompare(b),
  );
  const shown = all ? addresses : addresses.slice(0, FIRST_SHOWN);
  const told = addresses.length + record.dropped;
  return (
    <section className="card host-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="host-name">
        {host}
      </h2>
      {role && <p className="host-role">{roleTitle(role)}</p>}
      <p className="host-learned">
        {record.contact || record.gaveUp ? (role ? whatItLearned(host, role, told) : null) : neverReachedText(host)}
      </p>
      <p className="note host-contact">
        {purposesText(record.purposes)}{' '}
        {record.contact ? (
          <>
            Contacted {timesText(record.contact.count)}: <When sighting={record.contact} now={now} separator=", " />.
          </>
        ) : record.gaveUp ? (
          'Never answered.'
        ) : (
          'Never reached.'
        )}
      </p>
      {record.unanswered && (
        <p className="note host-unanswered">
          Tried {timesText(record.unanswered.count)} without an answer (
          <When sighting={record.unanswered} now={now} separator=", " />
          ): no network, a name that did not resolve, a refused connection or a request this page’s policy blocked. As
          far as the browser can tell these never reached {host} and told it nothing.
        </p>
      )}
      {record.gaveUp && (
        <p className="note host-gave-up">
          Given up on {timesText(record.gaveUp.count)} after waiting for an answer (
          <When sighting={record.gaveUp} now={now} separator=", " />
          ): these may have reached {host}, so the addresses they named are counted among those it could have learned.
        </p>
      )}
      {addresses.length > 0 && (
        <ul className="host-addresses" aria-label={`Addresses ${host} could have learned`}>
          {shown.map(([principal, sighting]) => {
            const label = labelOf(principal);
            return (
              <li key={principal} className="host-address">
                <span className="host-address-name">
                  {label ? <strong>{label}</strong> : null}
                  <span className="principal" title={principal}>
                    {shortPrincipal(principal)}
                  </span>
                  {label === null && <span className="muted"> no longer watched</span>}
                </span>
                <span className="host-address-when">
                  <When sighting={sighting} now={now} separator=" · " /> · {timesText(sighting.count)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {record.dropped > 0 && (
        <p className="note">
          And {record.dropped.toLocaleString('en-US')} more, told earlier: the record keeps the latest{' '}
          {addresses.length.toLocaleString('en-US')} per host.
        </p>
      )}
      {addresses.length > shown.length && (
        <button type="button" className="link-button" onClick={() => setAll(true)}>
          Show all {addresses.length.toLocaleString('en-US')} addresses
        </button>
      )}
    </section>
  );
}
