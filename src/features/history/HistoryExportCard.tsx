import { useWatchlistState } from '../../app/watchlist-context.tsx';
import { ExportDialog } from './ExportDialog.tsx';

/** Settings' way to a CSV of every watched address's history in one file. */
export function HistoryExportCard() {
  const state = useWatchlistState();
  const entries = state.status === 'ready' ? state.entries : [];
  return (
    <section className="card" aria-labelledby="history-export-heading">
      <h2 id="history-export-heading">Transaction history (CSV)</h2>
      <p className="note">
        Every watched address’s transactions in one file for a tax tool or a spreadsheet, read from each node at its
        pace and kept on this device (an export the tab was closed during goes on when the app opens again).
      </p>
      {entries.length === 0 ? (
        <p className="note">Nothing is watched yet.</p>
      ) : (
        <ExportDialog
          addresses={entries.map(({ network, principal }) => ({ network, principal }))}
          subject="the watch list"
        />
      )}
    </section>
  );
}
