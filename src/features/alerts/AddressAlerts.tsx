import { useId, useState } from 'react';
import { useAlertSettings, useAlertStores } from '../../app/alerts-context.tsx';
import { useNotificationPermission } from '../../app/use-notification-permission.ts';
import { plainUnits, STX_DECIMALS } from '../../domain/amount.ts';
import { DEFAULT_RULES, parseMinimum, STX_ASSET, type AlertRules } from '../../domain/alerts/alert-rules.ts';
import type { Network } from '../../domain/network.ts';
import { describeRules } from '../../domain/text/rules-text.ts';
import { ClaimableThreshold } from './ClaimableThreshold.tsx';

type Flag = Exclude<keyof AlertRules, 'minimums' | 'muted'>;

const FLAGS: readonly { key: Flag; label: string }[] = [
  { key: 'incoming', label: 'What it receives' },
  { key: 'outgoing', label: 'What it sends' },
  { key: 'stx', label: 'STX' },
  { key: 'tokens', label: 'Tokens' },
  { key: 'nfts', label: 'NFTs' },
  { key: 'stacking', label: 'Staking: stakes, unstakes, unlocks and sBTC rewards' },
  { key: 'pending', label: 'Also while pending in the mempool' },
  { key: 'unsolicitedGuard', label: 'Stay silent about tokens and NFTs it never held and did not ask for' },
];

/**
 * The alert rules of one address, saved as they change: the on/off switch, and the detailed rules folded under a
 * one-line summary, so that the card sits above a long activity list without pushing it away.
 */
export function AddressAlerts({ principal, network }: { principal: string; network: Network }) {
  const { settings } = useAlertStores();
  const rules = useAlertSettings().rules[`${network}:${principal}`] ?? DEFAULT_RULES;
  const { permission, request } = useNotificationPermission();
  const minimumId = useId();
  const [minimum, setMinimum] = useState(() =>
    rules.minimums[STX_ASSET] ? plainUnits(rules.minimums[STX_ASSET], STX_DECIMALS) : '',
  );
  const [problem, setProblem] = useState<string | null>(null);
  const save = (next: AlertRules) => void settings.setRules(network, principal, next);

  const saveMinimum = () => {
    const parsed = parseMinimum(minimum);
    if (!parsed.ok) return setProblem(parsed.error);
    setProblem(null);
    const minimums = { ...rules.minimums };
    if (parsed.value > 0n) minimums[STX_ASSET] = parsed.value;
    else delete minimums[STX_ASSET];
    save({ ...rules, minimums });
  };

  return (
    <section className="card address-alerts" aria-labelledby="address-alerts-heading">
      <h2 id="address-alerts-heading">Alerts</h2>
      <label className="choice switch-line">
        <input
          type="checkbox"
          role="switch"
          className="switch"
          checked={!rules.muted}
          onChange={(event) => {
            save({ ...rules, muted: !event.target.checked });
            // Turning alerts on is the moment to ask, never before.
            if (event.target.checked && permission === 'default') void request();
          }}
        />
        Alert me about this address
      </label>
      {permission === 'default' && !rules.muted && (
        <p className="note">
          Alerts show in the app’s inbox.{' '}
          <button type="button" className="link-button" onClick={() => void request()}>
            Enable notifications
          </button>{' '}
          to see them as notifications; Settings can also send them while the app is closed.
        </p>
      )}
      {permission === 'denied' && (
        <p className="note">Notifications are blocked for this site: alerts show only in the inbox (see Settings).</p>
      )}
      <details className="alert-rules">
        <summary>
          <span className="alert-rules-title">What to tell</span>{' '}
          <span className="alert-rules-summary">{describeRules(rules)}</span>
        </summary>
        <fieldset disabled={rules.muted}>
          <legend className="visually-hidden">Tell me about</legend>
          {FLAGS.map(({ key, label }) => (
            <label key={key} className="choice">
              <input
                type="checkbox"
                checked={rules[key]}
                onChange={(event) => save({ ...rules, [key]: event.target.checked })}
              />
              {label}
            </label>
          ))}
          <label htmlFor={minimumId}>Ignore incoming STX below (dust)</label>
          <div className="inline-field">
            <input
              id={minimumId}
              inputMode="decimal"
              placeholder="0"
              value={minimum}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? `${minimumId}-error` : undefined}
              onChange={(event) => setMinimum(event.target.value)}
              onBlur={saveMinimum}
              onKeyDown={(event) => {
                if (event.key === 'Enter') saveMinimum();
              }}
            />{' '}
            STX
          </div>
          {problem && (
            <p id={`${minimumId}-error`} role="alert" className="error">
              {problem}
            </p>
          )}
          {rules.stacking && <ClaimableThreshold rules={rules} save={save} />}
        </fieldset>
      </details>
    </section>
  );
}
