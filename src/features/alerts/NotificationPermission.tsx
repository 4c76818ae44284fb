import { useNotificationPermission } from '../../app/use-notification-permission.ts';

/**
 * Asks for notifications only when the user presses the button; explains a refusal and how to undo it, since the
 * browser will not ask again.
 */
export function NotificationPermission() {
  const { permission, request } = useNotificationPermission();
  if (permission === 'unsupported')
    return (
      <p className="note">
        This browser cannot show notifications. Alerts still arrive in the inbox while the app is open.
      </p>
    );
  if (permission === 'granted') return <p className="note">Notifications are on for Stacks Watch.</p>;
  if (permission === 'denied')
    return (
      <div role="status" className="notice">
        <p>
          <strong>Notifications are blocked for this site.</strong> Alerts still arrive in the inbox while the app is
          open, but nothing can reach you when it is closed, even through a relay.
        </p>
        <p>
          To undo it, open the site settings (the icon left of the address bar, or the app’s menu → App info →
          Notifications) and allow notifications, then come back here.
        </p>
      </div>
    );
  return (
    <div>
      <p className="note">Get a notification the moment something happens to a watched address.</p>
      <button type="button" className="primary" onClick={() => void request()}>
        Enable notifications
      </button>
    </div>
  );
}
