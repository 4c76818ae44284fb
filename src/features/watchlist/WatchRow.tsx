import { lazy, memo, Suspense, useEffect, useRef, useState } from 'react';
import { KIND_LABEL } from '../../domain/address/kind-label.ts';
import { middleEllipsis } from '../../domain/address/middle-ellipsis.ts';
import type { WatchEntry } from '../../domain/watch/watch-entry.ts';
import { addressPath, navigate } from '../../app/router.ts';
import { useWatchlistController } from '../../app/watchlist-context.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { MORE_ICON } from '../../ui/icons.ts';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { RowSummary } from './RowSummary.tsx';

const RenameForm = lazy(() => import('./RenameForm.tsx').then((module) => ({ default: module.RenameForm })));

interface Props {
  readonly entry: WatchEntry;
  readonly isFirst: boolean;
  readonly isLast: boolean;
  readonly onRemove: (principal: string) => void;
  /** Whether its network tells it apart from the others listed (see marksNetwork). */
  readonly markNetwork: boolean;
  /** The BNS name the engine learned for it since it was added (none given then). */
  readonly learnedName: string | null;
}

/**
 * Name, short address, network where it tells the row apart, balance, pending, last activity; rename, move and
 * remove behind its ⋯ button.
 */
export const WatchRow = memo(function WatchRow({ entry, isFirst, isLast, onRemove, markNetwork, learnedName }: Props) {
  const controller = useWatchlistController();
  const [actions, setActions] = useState(false);
  const [editing, setEditing] = useState(false);
  const bns = entry.name || learnedName;
  const name = entry.label || bns || entry.principal;
  const href = addressPath(entry.principal);
  const actionsRef = useRef<HTMLDivElement>(null);
  const moreRef = useRef<HTMLButtonElement>(null);
  // Unfolded near the bottom, the actions would open under a toast or the Undo: brought above them (the page's
  // scroll-padding leaves the stack's room), never moved when already in view.
  useEffect(() => {
    if (actions) actionsRef.current?.scrollIntoView({ block: 'nearest' });
  }, [actions]);

  return (
    <li className={actions || editing ? 'watch-row open' : 'watch-row'} data-principal={entry.principal}>
      <a
        className="watch-link"
        href={href}
        onClick={(event) => {
          if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          navigate(href);
        }}
      >
        <span className={entry.label || bns ? 'watch-label' : 'watch-label unlabelled'}>
          {entry.label || bns || 'No label'}
        </span>{' '}
        <span className="watch-sub">
          <span className="principal" aria-hidden="true">
            {middleEllipsis(entry.principal)}
          </span>
          <span className="visually-hidden">{entry.principal}</span>
          {markNetwork && (
            <span className="wide-only">
              {' '}
              <NetworkBadge network={entry.network} />
            </span>
          )}
          {entry.kind === 'multi-sig' && <span className="muted"> {KIND_LABEL[entry.kind]}</span>}
          {entry.label && bns && <span className="bns-name"> {bns}</span>}
        </span>
      </a>
      <RowSummary principal={entry.principal} network={markNetwork ? entry.network : null} followed={entry.network} />
      <button
        type="button"
        ref={moreRef}
        className="quiet icon-button row-more"
        aria-expanded={actions}
        aria-label={`Actions for ${name}`}
        onClick={() => setActions(!actions)}
      >
        <Icon bold path={MORE_ICON} />
      </button>
      {actions && !editing && (
        <div ref={actionsRef} className="row-actions" role="group" aria-label={`Actions for ${name}`}>
          <button type="button" onClick={() => setEditing(true)} aria-label={`Rename ${name}`}>
            Rename
          </button>
          {/* Marked unavailable rather than disabled: a row moved to the top keeps the focus on its Up (a disabled
              button would drop it to the page's start). */}
          <button
            type="button"
            onClick={() => isFirst || controller.move(entry.principal, -1)}
            aria-disabled={isFirst}
            aria-label={`Move ${name} up`}
          >
            Up
          </button>
          <button
            type="button"
            onClick={() => isLast || controller.move(entry.principal, 1)}
            aria-disabled={isLast}
            aria-label={`Move ${name} down`}
          >
            Down
          </button>
          <button
            type="button"
            className="danger"
            onClick={() => onRemove(entry.principal)}
            aria-label={`Remove ${name}`}
          >
            Remove
          </button>
        </div>
      )}
      {editing && (
        <Suspense fallback={null}>
          <RenameForm
            entry={entry}
            onDone={() => {
              // Saved or cancelled, the form goes: the focus comes back to the row's ⋯, which says its new name.
              const from = document.activeElement;
              void import('../../ui/focus-later.ts').then(({ focusWhenGone }) =>
                focusWhenGone(from, [() => moreRef.current]),
              );
              setEditing(false);
              setActions(false);
            }}
          />
        </Suspense>
      )}
    </li>
  );
});
