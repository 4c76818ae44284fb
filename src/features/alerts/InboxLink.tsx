import './inbox-link.css';
import { useUnreadCount } from '../../app/alerts-context.tsx';
import { navigate, usePathname } from '../../app/router.ts';
import { badgeText } from '../../domain/alerts/badge.ts';
import { Icon } from '../../ui/Icon.tsx';
import { BELL_ICON } from '../../ui/icons.ts';

/** The header's way to the inbox: a bell with the unread count (capped on the badge, exact for screen readers). */
export function InboxLink() {
  const unread = useUnreadCount();
  const here = usePathname() === '/inbox';
  return (
    <a
      href="/inbox"
      className="header-link inbox-link"
      aria-current={here ? 'page' : undefined}
      title={unread > 0 ? `Inbox, ${unread} unread` : 'Inbox'}
      onClick={(event) => {
        event.preventDefault();
        navigate('/inbox');
      }}
    >
      <Icon path={BELL_ICON} />
      <span className="visually-hidden">Inbox</span>
      {unread > 0 && (
        <span className="count">
          <span aria-hidden="true">{badgeText(unread)}</span>
          <span className="visually-hidden">, {unread} unread</span>
        </span>
      )}
    </a>
  );
}
