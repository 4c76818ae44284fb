import { lazy, Suspense } from 'react';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { AddAddressForm } from './AddAddressForm.tsx';
import { ImportExport } from './ImportExport.tsx';
import { WatchListView } from './WatchListView.tsx';

/** Only where a devnet runs next to the app: loaded after the list. */
const DemoAccounts = lazy(() =>
  import('../devnet/DemoAccounts.tsx').then((module) => ({ default: module.DemoAccounts })),
);

export function HomeScreen() {
  const state = useWatchlistState();
  const controller = useWatchlistController();

  if (state.status === 'failed') {
    return (
      <p role="alert" className="error">
        Your watch list could not be opened on this device ({state.reason}). Private browsing can block storage; try a
        normal window.
      </p>
    );
  }
  if (state.status === 'read-only') {
    return (
      <p role="alert" className="error">
        Your watch list was saved by a newer version of Stacks Watch (schema {state.version}). Reload to get the newer
        version; nothing was changed.
      </p>
    );
  }
  // The form shows at once; the list follows when IndexedDB has answered.
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
      {state.status === 'ready' && state.saveError && (
        <p role="alert" className="error">
          {state.saveError}
        </p>
      )}
      <AddAddressForm />
      <Suspense fallback={null}>
        <DemoAccounts />
      </Suspense>
      {state.status === 'ready' ? (
        <>
          <WatchListView entries={state.entries} />
          <ImportExport />
        </>
      ) : (
        <p className="note">Opening your watch list…</p>
      )}
    </>
  );
}
