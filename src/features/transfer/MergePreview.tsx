import type { AlertRules } from '../../domain/alerts/alert-rules.ts';
import { changesNothing, type MergePlan } from '../../domain/watch/list-transfer.ts';
import { middleEllipsis } from '../../domain/address/middle-ellipsis.ts';
import { NETWORK_LABEL } from '../../domain/network.ts';
import { isDefaultRules } from '../../domain/alerts/rules-record.ts';
import { describeRules } from '../../domain/text/rules-text.ts';
import type { WatchEntry } from '../../domain/watch/watch-entry.ts';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function Who({ entry, label }: { entry: WatchEntry; label?: string }) {
  const name = label ?? entry.label;
  return (
    <span className="preview-who">
      <strong>{name || 'No label'}</strong>{' '}
      <span className="preview-address" title={entry.principal}>
        {middleEllipsis(entry.principal)}
      </span>{' '}
      <span className={`badge badge-${entry.network}`}>{NETWORK_LABEL[entry.network]}</span>
    </span>
  );
}

const rulesLine = (rules: AlertRules | null) =>
  rules && !isDefaultRules(rules) ? `Alerts: ${describeRules(rules)}` : 'Alerts: the usual rules';

/** What the other device's list would change here, before anything does. */
export function MergePreview({
  plan,
  busy,
  onConfirm,
  onCancel,
}: {
  plan: MergePlan;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  if (changesNothing(plan))
    return (
      <div className="merge-preview">
        <p role="status">Everything in it is already on this device: nothing to add.</p>
        {plan.kept.length > 0 && <KeptList plan={plan} />}
        <div className="button-row">
          <button type="button" onClick={onCancel}>
            Back to the watch list
          </button>
        </div>
      </div>
    );
  return (
    <div className="merge-preview">
      <h2>Check before adding</h2>
      {plan.added.length > 0 && (
        <>
          <h3>{plural(plan.added.length, 'address to add', 'addresses to add')}</h3>
          <ul className="preview-list" aria-label="To add">
            {plan.added.map(({ entry, rules }) => (
              <li key={entry.principal}>
                <Who entry={entry} />
                <span className="note">{rulesLine(rules)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {(plan.labels.length > 0 || plan.rules.length > 0) && (
        <>
          <h3>Already watched here, to complete</h3>
          <ul className="preview-list" aria-label="To complete">
            {plan.labels.map(({ entry, label }) => (
              <li key={`label:${entry.principal}`}>
                <Who entry={entry} label={label} />
                <span className="note">Takes the label “{label}” (it has none here)</span>
              </li>
            ))}
            {plan.rules.map(({ entry, rules }) => (
              <li key={`rules:${entry.principal}`}>
                <Who entry={entry} />
                <span className="note">Takes its alert rules: {describeRules(rules)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {plan.kept.length > 0 && <KeptList plan={plan} />}
      {plan.unchanged > 0 && (
        <p className="note">
          {plural(plan.unchanged, 'address is', 'addresses are')} already here as sent, with the same labels and rules.
        </p>
      )}
      <div className="button-row">
        <button type="button" className="primary" disabled={busy} onClick={onConfirm}>
          {busy ? 'Adding…' : 'Add to my list'}
        </button>
        <button type="button" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

function KeptList({ plan }: { plan: MergePlan }) {
  return (
    <>
      <h3>Kept as they are on this device</h3>
      <ul className="preview-list" aria-label="Kept as on this device">
        {plan.kept.map(({ entry, theirLabel, theirRules }) => (
          <li key={entry.principal}>
            <Who entry={entry} />
            <span className="note">
              {[
                theirLabel !== null ? `the other device calls it “${theirLabel}”` : null,
                theirRules !== null ? `its alert rules there differ (${describeRules(theirRules)})` : null,
              ]
                .filter(Boolean)
                .join('; ')
                .replace(/^./, (first) => first.toUpperCase())}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
