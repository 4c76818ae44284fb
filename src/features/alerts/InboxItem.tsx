import type { InboxEntry } from '../../domain/alerts/inbox.ts';
import { Icon } from '../../ui/Icon.tsx';
import { TRASH_ICON } from '../../ui/icons-extra.ts';
import { RelativeTime } from '../../ui/RelativeTime.tsx';
import { useSwipe } from '../../ui/use-swipe.ts';

interface Props {
  readonly entry: InboxEntry;
  readonly body: string;
  readonly now: number;
  readonly onOpen: () => void;
  readonly onRead: () => void;
  readonly onDelete: () => void;
}

/**
 * One alert: its words, when, and its actions. On a touch screen a swipe right marks it read and a swipe left deletes
 * it; the ✓ and bin buttons do the same for a mouse, a keyboard or a screen reader.
 */
export function InboxItem({ entry, body, now, onOpen, onRead, onDelete }: Props) {
  const swipe = useSwipe(onRead, onDelete);
  return (
    <li className={entry.read ? 'inbox-entry' : 'inbox-entry unread'} data-alert={entry.id} {...swipe}>
      <a
        href={entry.path}
        onClick={(event) => {
          event.preventDefault();
          onOpen();
        }}
      >
        {!entry.read && <span className="visually-hidden">Unread: </span>}
        <strong>{entry.title}</strong>
      </a>
      {body && <span className="inbox-body">{body}</span>}
      <span className="inbox-when">
        <RelativeTime ms={entry.at} now={now} />
      </span>
      <span className="inbox-actions">
        {!entry.read && (
          <button
            type="button"
            className="quiet icon-button"
            aria-label={`Mark the alert “${entry.title}” read`}
            onClick={onRead}
          >
            <span aria-hidden="true">✓</span>
          </button>
        )}
        <button
          type="button"
          className="quiet icon-button"
          aria-label={`Delete the alert “${entry.title}”`}
          onClick={onDelete}
        >
          <Icon path={TRASH_ICON} size={18} />
        </button>
      </span>
    </li>
  );
}
