import { navigate } from '../../app/router.ts';
import { bodyUnderSubject } from '../../domain/alert-text.ts';
import type { AddressRun } from '../../domain/inbox-view.ts';
import { middleEllipsis } from '../../domain/middle-ellipsis.ts';
import { Icon } from '../../ui/Icon.tsx';
import { TRASH_ICON } from '../../ui/icons-extra.ts';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { RelativeTime } from '../../ui/RelativeTime.tsx';

interface Props {
  readonly run: AddressRun;
  readonly label: string;
  /** Whether its network tells the address apart from the others (see marksNetwork). */
  readonly markNetwork: boolean;
  readonly now: number;
  readonly onOpen: (id: string) => void;
  readonly onDelete: (ids: readonly string[]) => void;
}

/**
 * One address's alerts of one day, headed by its name: each alert's own words (the engine's) but the line naming
 * the address again, when, read state, delete.
 */
export function InboxGroup({ run, label, markNetwork, now, onOpen, onDelete }: Props) {
  const name = label || middleEllipsis(run.principal);
  return (
    <section
      className="card inbox-group"
      aria-label={`${name}, ${run.entries.length} ${run.entries.length === 1 ? 'alert' : 'alerts'}`}
    >
      <h3 className="inbox-group-head">
        <span className="inbox-group-name">{name}</span>
        {markNetwork && <NetworkBadge network={run.network} />}
        {run.unread > 0 && <span className="badge badge-unread">{run.unread} unread</span>}
      </h3>
      <ol className="inbox-list">
        {run.entries.map((entry) => {
          const body = bodyUnderSubject(entry.body);
          return (
            <li key={entry.id} className={entry.read ? 'inbox-entry' : 'inbox-entry unread'} data-alert={entry.id}>
              <a
                href={entry.path}
                onClick={(event) => {
                  event.preventDefault();
                  onOpen(entry.id);
                  navigate(entry.path);
                }}
              >
                {!entry.read && <span className="visually-hidden">Unread: </span>}
                <strong>{entry.title}</strong>
              </a>
              {body && <span className="inbox-body">{body}</span>}
              <span className="inbox-when">
                <RelativeTime ms={entry.at} now={now} />
              </span>
              <button
                type="button"
                className="quiet icon-button inbox-delete"
                aria-label={`Delete the alert “${entry.title}”`}
                onClick={() => onDelete([entry.id])}
              >
                <Icon path={TRASH_ICON} size={18} />
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
