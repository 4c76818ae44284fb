import { useId } from 'react';
import { inboxRowName, type InboxRow } from '../../domain/alerts/inbox-rows.ts';
import { besideChip, stateClass } from '../../domain/alerts/inbox-state.ts';
import { Icon } from '../../ui/Icon.tsx';
import { TRASH_ICON } from '../../ui/icons-extra.ts';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { RelativeTime } from '../../ui/RelativeTime.tsx';
import { useSwipe } from '../../ui/use-swipe.ts';
import { keepRowFocus } from './inbox-focus.ts';

interface Props {
  readonly row: InboxRow;
  /** Whether the row names its address (in time order); under its address's heading it does not. */
  readonly named: boolean;
  /** Whether its network tells the address apart from the others (see marksNetwork). */
  readonly markNetwork: boolean;
  readonly now: number;
  readonly onOpen: () => void;
  readonly onRead: () => void;
  readonly onDelete: () => void;
}

/**
 * One row (an alert, or both sides of a pair), as a phone's notification list has it: the address on top, the time
 * at its right (after its state chip), what happened, its further words; a tap anywhere on it opens it. Its link's name says the address
 * (also under its address's heading), what happened and when; its further words are the link's description. On a
 * touch screen a swipe right marks it read and a swipe left deletes it; the ✓ and bin buttons do the same for a
 * mouse, a keyboard or a screen reader, and leave the focus nearby (inbox-focus.ts).
 */
export function InboxItem({ row, named, markNetwork, now, onOpen, onRead, onDelete }: Props) {
  const swipe = useSwipe(onRead, onDelete);
  const words = useId();
  const who = named && row.who;
  // A pair names both sides in its words: it has no address line, and its network is marked beside its chip.
  const badgeInline = markNetwork && !who && named;
  return (
    <li className={row.read ? 'inbox-entry' : 'inbox-entry unread'} data-alert={row.ids.join(' ')} {...swipe}>
      {/* Where its transaction stands, before what happened; the link's name says it in the title's words. */}
      <span className="inbox-headline">
        {badgeInline && (
          <span className="inbox-network" aria-hidden="true">
            <NetworkBadge network={row.network} />
          </span>
        )}
        {row.state && (
          <span className={`badge inbox-state ${stateClass(row.state)}`} aria-hidden="true">
            {row.state}
          </span>
        )}
        <a
          href={row.path}
          className="inbox-open"
          aria-label={inboxRowName(row, now, { markNetwork })}
          aria-describedby={row.body || row.minedAgain ? words : undefined}
          onClick={(event) => {
            event.preventDefault();
            onOpen();
          }}
        >
          <Title row={row} />
        </a>
      </span>
      {/* The link's name says the address and when. */}
      {(who || (markNetwork && !badgeInline)) && (
        <span className="inbox-who-line" aria-hidden="true">
          {who && <span className="inbox-who">{who}</span>}
          {markNetwork && <NetworkBadge network={row.network} />}
        </span>
      )}
      <span className="inbox-when" aria-hidden="true">
        <RelativeTime ms={row.at} now={now} />
      </span>
      {(row.body || row.minedAgain) && (
        <span className="inbox-body" id={words}>
          {row.body}
          {/* Its chip says where it stands now; what it went through on the way stays in sight, quietly. */}
          {row.minedAgain && <span className="badge inbox-state inbox-history">Mined again after a re-org</span>}
        </span>
      )}
      <span className="inbox-actions">
        {!row.read && (
          <button
            type="button"
            className="quiet icon-button"
            aria-label={`Mark the alert “${row.title}” read`}
            data-control="read"
            onClick={(event) => {
              keepRowFocus(event.currentTarget, 'read');
              onRead();
            }}
          >
            <span aria-hidden="true">✓</span>
          </button>
        )}
        <button
          type="button"
          className="quiet icon-button"
          aria-label={`Delete the alert “${row.title}”`}
          data-control="delete"
          onClick={(event) => {
            keepRowFocus(event.currentTarget, 'delete');
            onDelete();
          }}
        >
          <Icon path={TRASH_ICON} size={18} />
        </button>
      </span>
    </li>
  );
}

/** What happened, without the words its chip already says (kept for whoever reads the text, not drawn twice). */
function Title({ row }: { row: InboxRow }) {
  const { before, shown, after } = besideChip(row.title, row.state);
  return (
    <strong>
      {before && <span className="visually-hidden">{before}</span>}
      {shown}
      {after && <span className="visually-hidden">{after}</span>}
    </strong>
  );
}
