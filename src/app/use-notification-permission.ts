import { useCallback, useEffect, useState } from 'react';

export type PermissionState = NotificationPermission | 'unsupported';

const current = (): PermissionState => ('Notification' in window ? Notification.permission : 'unsupported');

/**
 * The notification permission, kept current (the user may change it in the browser's site settings while the app
 * is open), and a way to ask — only ever called from a user's action, never on load.
 */
export function useNotificationPermission(): { permission: PermissionState; request: () => Promise<PermissionState> } {
  const [permission, setPermission] = useState<PermissionState>(current);
  useEffect(() => {
    let status: PermissionStatus | null = null;
    const update = () => setPermission(current());
    void navigator.permissions
      ?.query({ name: 'notifications' })
      .then((result) => {
        status = result;
        result.addEventListener('change', update);
      })
      .catch(() => undefined);
    window.addEventListener('focus', update);
    return () => {
      status?.removeEventListener('change', update);
      window.removeEventListener('focus', update);
    };
  }, []);
  const request = useCallback(async (): Promise<PermissionState> => {
    if (!('Notification' in window)) return 'unsupported';
    const answer = await Notification.requestPermission();
    setPermission(answer);
    return answer;
  }, []);
  return { permission, request };
}
