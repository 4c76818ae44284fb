import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { DemoAccounts } from '../devnet/DemoAccounts.tsx';
import { AddAddressForm } from './AddAddressForm.tsx';
import { ImportExport } from './ImportExport.tsx';
import { WatchListView } from './WatchListView.tsx';

export function HomeScreen() {
  const state = useWatchlistState();
  const controller = useWatchlistController();

  if (state.status === 'loading') return <p className="note">Opening your watch list…</p>;
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
  return (
    <>
      {state.notice && (
        <div className="notice" role="status">
          <p>{state.notice}</p>
          <button type="button" onClick={controller.dismissNotice}>
            Dismiss
          </button>
        </div>
      )}
      {state.saveError && (
        <p role="alert" className="error">
          {state.saveError}
        </p>
      )}
      <AddAddressForm />
      <DemoAccounts />
      <WatchListView entries={state.entries} />
      <ImportExport />
    </>
  );
}
