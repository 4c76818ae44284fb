import './transfer.css';
import { useState } from 'react';
import { useWatchlistState } from '../../app/watchlist-context.tsx';
import { ShareCodes } from './ShareCodes.tsx';

/** Settings' way to move the list, labels and alert rules to another device by QR code or link, with no server. */
export function MoveList() {
  const state = useWatchlistState();
  const [open, setOpen] = useState(false);
  const count = state.status === 'ready' ? state.entries.length : 0;
  return (
    <section className="card move-list" aria-labelledby="move-heading">
      <h2 id="move-heading">Move to another device</h2>
      <p className="note">
        Scan the code with the other device’s camera, or send it the link: your addresses, labels and alert rules travel
        in the part of the link after “#”, which no server ever sees. The other device shows what it will add before
        adding anything. Anyone who sees the code or the link can read your list.
      </p>
      {count === 0 ? (
        <p className="note">Your watch list is empty: there is nothing to move yet.</p>
      ) : open ? (
        <ShareCodes onClose={() => setOpen(false)} />
      ) : (
        <div className="button-row">
          <button type="button" onClick={() => setOpen(true)}>
            Show QR code and link
          </button>
        </div>
      )}
    </section>
  );
}
