import { historyExports, type ExportState } from '../../app/history-exports.ts';
import { remainingOf } from '../../domain/history/history.ts';
import { downloadCsv, timeLeft } from './download-csv.ts';

/** What the export under way is doing: its progress and estimate with Cancel, or the file to save. */
export function ExportProgress({ state, fileName }: { state: ExportState; fileName: string }) {
  if (state.phase === 'elsewhere') return <p className="note">An export is running in another Stacks Watch tab.</p>;
  if (state.phase === 'cancelled')
    return (
      <p role="status" className="note">
        Export cancelled: no file was made. The {state.kept} transaction{state.kept === 1 ? '' : 's'} read stay on this
        device; a new export goes on from there.
      </p>
    );
  if (state.phase === 'failed')
    return (
      <p role="alert" className="error">
        The export stopped: {state.message}
      </p>
    );
  if (state.phase === 'reading') {
    const progress = state.progress?.report.progress;
    const remaining = progress ? remainingOf(progress) : null;
    const total = progress && remaining !== null ? progress.kept + remaining : null;
    const of =
      state.job.addresses.length > 1
        ? ` (address ${(state.progress?.index ?? 0) + 1} of ${state.job.addresses.length})`
        : '';
    return (
      <div className="export-progress" aria-live="polite">
        {state.resumed && <p className="note">Resumed where it stopped.</p>}
        <progress max={total ?? undefined} value={total === null ? undefined : (progress?.kept ?? 0)} />
        <p>
          Reading the history{of}: {progress?.kept ?? 0}
          {total !== null ? ` of about ${total}` : ''} transactions ·{' '}
          {timeLeft(state.progress?.report.secondsLeft ?? null)}
        </p>
        <button type="button" onClick={() => void historyExports.cancel()}>
          Cancel
        </button>
      </div>
    );
  }
  if (state.phase !== 'ready') return null;
  const { result } = state;
  return (
    <div className="export-ready">
      {state.resumed && <p className="note">Resumed where it stopped.</p>}
      <p>
        The CSV is ready: {result.rows} row{result.rows === 1 ? '' : 's'}.
      </p>
      {result.missing.length > 0 && (
        <div role="status">
          <p>Not in the file (read it again when online):</p>
          <ul className="export-missing">
            {result.missing.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      <button
        type="button"
        className="primary"
        onClick={() => {
          downloadCsv(result.csv, fileName);
          void historyExports.saved();
        }}
      >
        Save the CSV
      </button>
    </div>
  );
}
