import './toasts.css';
import { useEffect, type MouseEvent } from 'react';
import { useInboxEntries } from '../../app/alerts-context.tsx';
import { navigate, usePathname } from '../../app/router.ts';
import { toasts, useToast } from '../../app/toasts.ts';
import { burstSince, viewBurst } from '../../domain/alerts/toast-view.ts';
import { Icon } from '../../ui/Icon.tsx';
import { CLOSE_ICON } from '../../ui/icons-extra.ts';

/**
 * The in-app alert: one at a time at the bottom (never over the header or the top of the list), the newest alert's
 * words wrapped rather than cut, and "+N more" to the others (the inbox, marked where the burst began). It is not a live region: the bottom stack announces
 * its spoken line (shell/BottomStack.tsx).
 */
export function Toasts() {
  const toast = useToast();
  const entries = useInboxEntries();
  // The inbox lists the alerts already: a toast there would only cover them.
  const onInbox = usePathname() === '/inbox';
  useEffect(() => {
    toasts.drawnOnScreen(true);
    return () => toasts.drawnOnScreen(false);
  }, []);
  useEffect(() => {
    if (onInbox && toast) toasts.dismiss();
  }, [onInbox, toast]);
  const view = toast && !onInbox && viewBurst(toast.burst, burstSince(toast.burst, entries));
  const open = (path: string) => (event: MouseEvent) => {
    event.preventDefault();
    toasts.dismiss();
    navigate(path);
  };
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
        <div className="toast-words">
          <a className="toast-text" href={view.path} onClick={open(view.path)}>
            <strong>{view.title}</strong>
            {view.body && <span className="toast-body">{view.body}</span>}
          </a>
          {view.more > 0 && (
            <a className="toast-more" href={view.morePath} onClick={open(view.morePath)}>
              +{view.more} more
            </a>
          )}
        </div>
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
