import './watch-rows.css';
import './row-figures.css';
import { lazy, Suspense, useState } from 'react';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { DamagedList } from './DamagedList.tsx';
import { downloadDamagedLater, downloadWatchlistLater } from './download-later.ts';
import { WATCHLIST_HEADING, WatchListView } from './WatchListView.tsx';

/** Only where a devnet runs next to the app: loaded after the list. */
const DemoAccounts = lazy(() =>
  import('../devnet/DemoAccounts.tsx').then((module) => ({ default: module.DemoAccounts })),
);

/** Loaded on the first press of "Add address" (precached, so offline too): the first paint does not carry it. */
const AddAddressSheet = lazy(() =>
  import('./AddAddressSheet.tsx').then((module) => ({ default: module.AddAddressSheet })),
);

/** The first screen: the watch list, with adding an address one button away. */
export function HomeScreen() {
  const state = useWatchlistState();
  const controller = useWatchlistController();
  const [adding, setAdding] = useState(false);
  const [sheetLoaded, setSheetLoaded] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  // What the form had to say about what it saved (an address typed in lower case, saved in capitals): shown, not only
  // spoken, until the sheet opens again.
  const [noted, setNoted] = useState(false);

  if (state.status === 'failed') {
    return (
      <p role="alert" className="error">
        Your watch list could not be opened on this device: {state.reason}. Private browsing can block storage; try a
        normal window. A list exported earlier can be imported there.
      </p>
    );
  }
  if (state.status === 'read-only') {
    const copy = { record: 'the watch list', place: state.place, reason: `schema ${state.version}`, value: state.raw };
    return (
      <div role="alert" className="error storage-alert">
        <p>
          Your watch list was saved by a newer version of Stacks Watch (schema {state.version}). Reload to get the newer
          version; nothing was changed.
        </p>
        <button type="button" onClick={() => downloadDamagedLater([copy])}>
          Download the stored list
        </button>
      </div>
    );
  }
  const openSheet = () => {
    setAnnouncement('');
    setSheetLoaded(true);
    setAdding(true);
  };
  return (
    <>
      {state.status === 'ready' && state.notice && (
        <div className="notice" role="status">
          <p>{state.notice}</p>
          <button type="button" onClick={controller.dismissNotice}>
            Dismiss
          </button>
        </div>
      )}
      {state.status === 'ready' && state.damaged && (
        <DamagedList
          damaged={state.damaged}
          shown={state.entries.length}
          onReplace={() => void controller.replaceDamaged()}
        />
      )}
      {state.status === 'ready' && state.saveError && (
        <div role="alert" className="error save-error">
          <p>{state.saveError}</p>
          <button type="button" onClick={() => downloadWatchlistLater(state.entries)}>
            Download the watch list
          </button>
        </div>
      )}
      <Suspense fallback={null}>
        <DemoAccounts
          onAdded={(said) => {
            setAnnouncement(said);
            setNoted(false);
            // The card and its button go once all are watched: the list they joined takes the focus.
            document.getElementById(WATCHLIST_HEADING)?.focus();
          }}
        />
      </Suspense>
      {state.status === 'ready' ? (
        <WatchListView entries={state.entries} onAdd={openSheet} />
      ) : (
        <p className="note">Opening your watch list…</p>
      )}
      {sheetLoaded && (
        <Suspense fallback={null}>
          <AddAddressSheet
            open={adding}
            onClose={() => setAdding(false)}
            onAdded={(said, worthShowing) => {
              setAdding(false);
              setAnnouncement(said);
              setNoted(worthShowing);
            }}
          />
        </Suspense>
      )}
      <p role="status" className={noted && announcement ? 'note added-note' : 'visually-hidden'}>
        {announcement}
      </p>
    </>
  );
}
