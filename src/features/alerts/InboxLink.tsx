import { useUnreadCount } from '../../app/alerts-context.tsx';
import { navigate } from '../../app/router.ts';

/** The header's way to the inbox, with the unread count. */
export function InboxLink() {
  const unread = useUnreadCount();
  return (
    <a
      href="/inbox"
      className="inbox-link"
      onClick={(event) => {
        event.preventDefault();
        navigate('/inbox');
      }}
    >
      Inbox
      {unread > 0 && (
        <span className="count">
          {unread > 99 ? '99+' : unread}
          <span className="visually-hidden"> unread</span>
        </span>
      )}
    </a>
  );
}
