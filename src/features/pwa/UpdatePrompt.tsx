import { useSyncExternalStore } from 'react';
import { applyUpdate, getUpdateState, subscribeToUpdates } from '../../app/pwa/update-state.ts';

export function UpdatePrompt() {
  const { updateReady, message } = useSyncExternalStore(subscribeToUpdates, getUpdateState);
  if (!updateReady) return null;
  return (
    <div className="update-prompt" role="status">
      <span>{message}</span>
      <button type="button" className="primary" onClick={applyUpdate}>
        Reload
      </button>
    </div>
  );
}
