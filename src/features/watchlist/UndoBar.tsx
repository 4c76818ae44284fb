import './undo-bar.css';
import { useEffect, useRef, useState } from 'react';
import { undoOffer, type UndoOffer } from '../../app/undo-offer.ts';
import { UNDO_WINDOW_MS } from '../../domain/watch/removal-journal.ts';
import { middleEllipsis } from '../../domain/address/middle-ellipsis.ts';
import { knownName } from '../../domain/watch/entry-name.ts';
import { useNameBook } from '../../app/name-context.tsx';

/**
 * "Removed … Undo" for ten seconds of the user's attention: the countdown stops while the pointer or the focus is on
 * the bar (time to reach it, WCAG 2.2.1) and goes on, from where it was, when they leave. Rendered with the offer as
 * its key: a new removal starts a fresh countdown.
 */
export function UndoBar({ offer }: { offer: UndoOffer }) {
  // Held while either is on the bar: the pointer leaving a focused Undo does not restart the countdown.
  const [pointer, setPointer] = useState(false);
  const [focus, setFocus] = useState(false);
  const held = pointer || focus;
  const left = useRef(offer.leftMs ?? UNDO_WINDOW_MS);
  useEffect(() => {
    if (held) return;
    const started = Date.now();
    undoOffer.runsUntil(offer.removal, started + left.current);
    const timer = setTimeout(() => undoOffer.expire(offer.removal), left.current);
    return () => {
      clearTimeout(timer);
      left.current = Math.max(0, left.current - (Date.now() - started));
    };
  }, [held, offer]);

  const { entry } = offer.removal;
  const book = useNameBook();
  // Named as every screen names it (a BNS name learned since it was added too), else by the address shortened: never
  // three lines of a phone's bar.
  const named = knownName(entry, book?.get(entry.principal));
  return (
    <div
      className="undo-bar"
      role="status"
      onPointerEnter={() => setPointer(true)}
      onPointerLeave={() => setPointer(false)}
      onFocus={() => setFocus(true)}
      onBlur={() => setFocus(false)}
    >
      <span>Removed {named ? `“${named}”` : middleEllipsis(entry.principal)}.</span>
      <button
        type="button"
        onClick={(event) => {
          // The bar goes: the focus goes to the row it brought back, else (another screen) to the screen's heading.
          // The helper loads (precached) on this first use, not with the first paint; it waits for the bar to go.
          const from = event.currentTarget;
          void import('../../ui/focus-later.ts').then(({ focusWhenGone, screenHeading, withAttribute }) =>
            focusWhenGone(from, [
              () =>
                withAttribute(document, '.watch-row', 'data-principal', entry.principal)?.querySelector<HTMLElement>(
                  '.watch-link',
                ),
              () => screenHeading(),
            ]),
          );
          undoOffer.take(offer.removal);
        }}
      >
        Undo
      </button>
    </div>
  );
}
