import { useAlertSettings, useAlertStores } from '../../app/alerts-context.tsx';
import type { WhileOpen } from '../../store/alert-settings-store.ts';
import { NotificationPermission } from './NotificationPermission.tsx';

const WHILE_OPEN: readonly (readonly [WhileOpen, string])[] = [
  ['toast', 'Show alerts inside the app'],
  // The system notification replaces the toast (the service worker shows one or the other, never both).
  ['system', 'Show system notifications instead'],
];

/** The settings screen's notification section. */
export function AlertPreferences() {
  const { settings } = useAlertStores();
  const { whileOpen } = useAlertSettings();
  return (
    <section className="card" aria-labelledby="alerts-heading">
      <h2 id="alerts-heading">Notifications</h2>
      <NotificationPermission />
      <fieldset>
        <legend>While Stacks Watch is open and in front</legend>
        {WHILE_OPEN.map(([value, words]) => (
          <label key={value} className="choice">
            <input
              type="radio"
              name="while-open"
              checked={whileOpen === value}
              onChange={() => void settings.setWhileOpen(value)}
            />
            {words}
          </label>
        ))}
      </fieldset>
    </section>
  );
}
