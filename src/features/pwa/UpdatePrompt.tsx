import './update-prompt.css';
import { applyUpdate, dismissUpdate, useUpdateState } from '../../app/pwa/update-state.ts';

export function UpdatePrompt() {
  const { updateReady, message } = useUpdateState();
  if (!updateReady) return null;
  return (
    <div className="update-prompt" role="status">
      <span>{message}</span>
      <span className="update-actions">
        <button type="button" className="quiet" onClick={dismissUpdate}>
          Later
        </button>
        <button type="button" className="primary" onClick={applyUpdate}>
          Reload
        </button>
      </span>
    </div>
  );
}
