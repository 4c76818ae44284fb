import { useAlertSettings, useAlertStores } from '../../app/alerts-context.tsx';
import { NotificationPermission } from './NotificationPermission.tsx';

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
        <label>
          <input
            type="radio"
            name="while-open"
            checked={whileOpen === 'toast'}
            onChange={() => void settings.setWhileOpen('toast')}
          />{' '}
          Show alerts inside the app
        </label>
        <label>
          <input
            type="radio"
            name="while-open"
            checked={whileOpen === 'system'}
            onChange={() => void settings.setWhileOpen('system')}
          />{' '}
          Show system notifications as well
        </label>
      </fieldset>
    </section>
  );
}
