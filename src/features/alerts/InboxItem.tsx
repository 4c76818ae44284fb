import type { InboxRow } from '../../domain/alerts/inbox-rows.ts';
import { Icon } from '../../ui/Icon.tsx';
import { TRASH_ICON } from '../../ui/icons-extra.ts';
import { RelativeTime } from '../../ui/RelativeTime.tsx';
import { useSwipe } from '../../ui/use-swipe.ts';

interface Props {
  readonly row: InboxRow;
  readonly now: number;
  readonly onOpen: () => void;
  readonly onRead: () => void;
  readonly onDelete: () => void;
}

/**
 * One row (an alert, or both sides of a pair): its words, when, and its actions. On a touch screen a swipe right
 * marks it read and a swipe left deletes it; the ✓ and bin buttons do the same for a mouse, a keyboard or a screen
 * reader.
 */
export function InboxItem({ row, now, onOpen, onRead, onDelete }: Props) {
  const swipe = useSwipe(onRead, onDelete);
  return (
    <li className={row.read ? 'inbox-entry' : 'inbox-entry unread'} data-alert={row.ids.join(' ')} {...swipe}>
      <a
        href={row.path}
        onClick={(event) => {
          event.preventDefault();
          onOpen();
        }}
      >
        {!row.read && <span className="visually-hidden">Unread: </span>}
        <strong>{row.title}</strong>
      </a>
      {row.body && <span className="inbox-body">{row.body}</span>}
      <span className="inbox-when">
        <RelativeTime ms={row.at} now={now} />
      </span>
      <span className="inbox-actions">
        {!row.read && (
          <button
            type="button"
            className="quiet icon-button"
            aria-label={`Mark the alert “${row.title}” read`}
            onClick={onRead}
          >
            <span aria-hidden="true">✓</span>
          </button>
        )}
        <button
          type="button"
          className="quiet icon-button"
          aria-label={`Delete the alert “${row.title}”`}
          onClick={onDelete}
        >
          <Icon path={TRASH_ICON} size={18} />
        </button>
      </span>
    </li>
  );
}
