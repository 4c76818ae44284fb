import { useId, useState } from 'react';
import { useRelay } from '../../app/relay-context.tsx';
import { useRuntimeConfig } from '../../app/use-runtime-config.ts';
import { PrivacyLink } from '../privacy/PrivacyLink.tsx';
import { RelayUnwatched } from './RelayUnwatched.tsx';

/**
 * Settings → alerts while the app is closed, through a relay the user chooses. Off by default; what the relay
 * learns is said before it is turned on; the switch asks for notifications only when pressed.
 */
export function ClosedAlerts() {
  const relay = useRelay();
  const config = useRuntimeConfig();
  const [typed, setTyped] = useState<string | null>(null);
  const ids = { heading: useId(), url: useId(), what: useId() };
  if (!relay) return null;
  const { settings, state, link } = relay;
  const url = typed ?? settings.url ?? config?.relay?.url ?? '';
  const busy = state.busy === 'on' || state.busy === 'off';
  const support = link.support();

  return (
    <section className="card closed-alerts" aria-labelledby={ids.heading}>
      <h2 id={ids.heading}>Alerts when the app is closed</h2>
      <div id={ids.what}>
        <p className="note">
          A relay follows your addresses and sends a push message when something happens, even while Stacks Watch is
          closed. Run your own, or use one you trust.
        </p>
        <ul className="relay-learns">
          <li>
            <strong>It learns</strong> the addresses you watch, their alert rules and this browser’s push address.
          </li>
          <li>
            <strong>It never learns</strong> your keys, your labels or anything else on this device.
          </li>
        </ul>
      </div>
      <p className="note">
        What a relay was sent, and when, is in <PrivacyLink />.
      </p>
      {support === 'needs-home-screen' && (
        <p className="notice" role="note">
          On iPhone and iPad, alerts reach a closed app only once it is on the Home Screen: tap Share, then “Add to Home
          Screen”, and open Stacks Watch from there to turn this on.
        </p>
      )}
      {support === 'unsupported' && (
        <p className="note">This browser cannot receive push messages, so alerts arrive only while the app is open.</p>
      )}
      <div className="field">
        <label htmlFor={ids.url}>Relay address</label>
        <input
          id={ids.url}
          value={url}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="https://relay.example.com"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          disabled={settings.enabled || busy}
        />
      </div>
      <label className="choice switch-line">
        <input
          type="checkbox"
          role="switch"
          className="switch"
          aria-describedby={ids.what}
          checked={settings.enabled}
          disabled={busy || (support !== 'supported' && !settings.enabled)}
          onChange={(event) => void (event.target.checked ? link.turnOn(url) : link.turnOff())}
        />
        Send me alerts when the app is closed
      </label>
      <p role="status" className="note">
        {statusText(settings.enabled, state.busy, state.error ? null : state.syncedAt, settings.url)}
      </p>
      {settings.enabled && <RelayUnwatched unwatched={state.unwatched} />}
      {state.error && (
        <p role="alert" className="error">
          {state.error}
        </p>
      )}
      {state.retry && !settings.enabled && !busy && (
        <button type="button" onClick={() => void link.turnOn(url)}>
          Try again
        </button>
      )}
    </section>
  );
}

function statusText(enabled: boolean, busy: string | null, syncedAt: number | null, url: string | null): string {
  if (busy === 'on') return 'Turning on…';
  if (busy === 'off') return 'Turning off…';
  if (busy === 'sync') return 'Sending the watch list to the relay…';
  if (!enabled) return 'Off: nothing is sent to a relay.';
  return syncedAt === null
    ? `On, through ${url ?? 'the relay'}.`
    : `On, through ${url ?? 'the relay'}; the relay has your current watch list.`;
}
