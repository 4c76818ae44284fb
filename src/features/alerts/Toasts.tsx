import { navigate } from '../../app/router.ts';
import { toasts, useToast } from '../../app/toasts.ts';
import { Icon } from '../../ui/Icon.tsx';

/**
 * The in-app alert: one at a time at the bottom (never over the header or the top of the list), words wrapped
 * rather than cut, read out politely by screen readers.
 */
export function Toasts() {
  const toast = useToast();
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toast && (
        <div key={toast.key} className="toast">
          <a
            className="toast-text"
            href={toast.view.path}
            onClick={(event) => {
              event.preventDefault();
              toasts.dismiss();
              navigate(toast.view.path);
            }}
          >
            <strong>
              {toast.view.title}
              {toast.view.merged && <span className="toast-view"> — view</span>}
            </strong>
            {toast.view.body && <span className="toast-body">{toast.view.body}</span>}
          </a>
          <button
            type="button"
            className="quiet icon-button"
            aria-label={`Dismiss “${toast.view.title}”`}
            onClick={toasts.dismiss}
          >
            <Icon name="close" size={18} />
          </button>
        </div>
      )}
    </div>
  );
}
