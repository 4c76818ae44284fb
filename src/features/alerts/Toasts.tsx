import { useEffect } from 'react';
import { navigate, usePathname } from '../../app/router.ts';
import { toasts, useToast } from '../../app/toasts.ts';
import { viewBurst } from '../../domain/alerts/toast-view.ts';
import { Icon } from '../../ui/Icon.tsx';
import { CLOSE_ICON } from '../../ui/icons-extra.ts';

/**
 * The in-app alert: one at a time at the bottom (never over the header or the top of the list), words wrapped
 * rather than cut; inside the app's polite live region.
 */
export function Toasts() {
  const toast = useToast();
  // The inbox lists the alerts already: a toast there would only cover them.
  const onInbox = usePathname() === '/inbox';
  useEffect(() => {
    if (onInbox && toast) toasts.dismiss();
  }, [onInbox, toast]);
  const view = toast && !onInbox && viewBurst(toast.burst);
  return (
    toast &&
    view && (
      <div
        key={toast.key}
        className="toast"
        onPointerEnter={toasts.hold}
        onPointerLeave={toasts.release}
        onFocus={toasts.hold}
        onBlur={toasts.release}
      >
        <a
          className="toast-text"
          href={view.path}
          onClick={(event) => {
            event.preventDefault();
            toasts.dismiss();
            navigate(view.path);
          }}
        >
          <strong>
            {view.title}
            {view.merged && <span className="toast-view"> — view</span>}
          </strong>
          {view.body && <span className="toast-body">{view.body}</span>}
        </a>
        <button
          type="button"
          className="quiet icon-button"
          aria-label={`Dismiss “${view.title}”`}
          onClick={toasts.dismiss}
        >
          <Icon path={CLOSE_ICON} size={18} />
        </button>
      </div>
    )
  );
}
