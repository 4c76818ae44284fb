/**
 * When a node that could not be reached is worth trying at once rather than at its next backoff: the device is
 * back online, or the app came back into view (the user is looking).
 */
export function onWake(listener: () => void): () => void {
  const visible = () => {
    if (document.visibilityState === 'visible') listener();
  };
  window.addEventListener('online', listener);
  document.addEventListener('visibilitychange', visible);
  return () => {
    window.removeEventListener('online', listener);
    document.removeEventListener('visibilitychange', visible);
  };
}
