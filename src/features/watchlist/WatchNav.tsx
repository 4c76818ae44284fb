import './watch-nav.css';
import { addressPath, navigate } from '../../app/router.ts';
import { useWatchlistState } from '../../app/watchlist-context.tsx';
import { formatStx } from '../../domain/amount.ts';
import { stxHeld } from '../../domain/state/stx-held.ts';
import type { WatchEntry } from '../../domain/watch/watch-entry.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useMedia } from '../../ui/use-media.ts';
import { useNaming } from '../../app/use-naming.ts';

/** Wide enough for the list beside an address page (the layout's breakpoint for it). */
const SIDE_BY_SIDE = '(min-width: 75rem)';

/**
 * On a wide screen, the watch list stays beside an address page: one click from one address to the next, the open
 * one marked. Not rendered at all on a phone (the back button is the way there).
 */
export function WatchNav({ current }: { current: string }) {
  const wide = useMedia(SIDE_BY_SIDE);
  const state = useWatchlistState();
  // As the list, the inbox and the alerts name it.
  const naming = useNaming();
  if (!wide || state.status !== 'ready' || state.entries.length < 2) return null;
  return (
    <nav className="watch-nav" aria-label="Watch list">
      <ol>
        {state.entries.map((entry) => (
          <NavItem
            key={entry.principal}
            entry={entry}
            name={naming.party(entry.principal)}
            current={entry.principal === current}
          />
        ))}
      </ol>
    </nav>
  );
}

/** `name`: as the list and the alerts name it (its label, else its BNS name, given or learned since, else short). */
function NavItem({ entry, name, current }: { entry: WatchEntry; name: string; current: boolean }) {
  const snapshot = useSnapshot(entry.principal);
  const href = addressPath(entry.principal);
  return (
    <li>
      <a
        href={href}
        aria-current={current ? 'page' : undefined}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          navigate(href);
        }}
      >
        <span className="watch-nav-name">{name}</span>
        <span className="watch-nav-figure">
          {snapshot?.stx ? formatStx(stxHeld(snapshot.stx, snapshot.staking).available) : null}
        </span>
      </a>
    </li>
  );
}
