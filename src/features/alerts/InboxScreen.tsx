import { useState } from 'react';
import { useAlertStores, useInboxEntries } from '../../app/alerts-context.tsx';
import { navigate } from '../../app/router.ts';
import { useNow } from '../../app/use-now.ts';
import { formatAge } from '../../domain/activity-text.ts';

/** How many alerts the screen lists at first, and how many more each press of "Show older" adds. */
const PAGE = 200;

/** Every alert, newest first, with its read state. */
export function InboxScreen() {
  const { inbox } = useAlertStores();
  const entries = useInboxEntries();
  const now = useNow();
  const [shown, setShown] = useState(PAGE);
  const unread = entries.filter((entry) => !entry.read).length;
  return (
    <section className="inbox">
      <h1>Inbox</h1>
      <div className="inbox-actions">
        <p className="note" aria-live="polite">
          {entries.length === 0
            ? 'No alerts yet. They appear here as something happens to a watched address.'
            : unread === 0
              ? 'Everything is read.'
              : `${unread} unread`}
        </p>
        <button type="button" disabled={unread === 0} onClick={() => void inbox.markAllRead()}>
          Mark all read
        </button>
      </div>
      {entries.length > 0 && (
        <ol className="inbox-list">
          {entries.slice(0, shown).map((entry) => (
            <li key={entry.id} className={entry.read ? 'inbox-entry' : 'inbox-entry unread'} data-alert={entry.id}>
              <a
                href={entry.path}
                onClick={(event) => {
                  event.preventDefault();
                  void inbox.markRead([entry.id]);
                  navigate(entry.path);
                }}
              >
                {!entry.read && <span className="visually-hidden">Unread: </span>}
                <strong>{entry.title}</strong>
              </a>
              <span className="inbox-body">{entry.body}</span>
              <span className="note">{formatAge(entry.at, now)}</span>
            </li>
          ))}
        </ol>
      )}
      {entries.length > shown && (
        <button type="button" onClick={() => setShown(shown + PAGE)}>
          Show older alerts ({entries.length - shown} more)
        </button>
      )}
    </section>
  );
}
