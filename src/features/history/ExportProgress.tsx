import { historyExports, type ExportState } from '../../app/history-exports.ts';
import { remainingOf } from '../../domain/history/history.ts';
import { useState } from 'react';
import { ByteOrderMarkChoice } from './ByteOrderMarkChoice.tsx';
import { saveCsvFile, timeLeft } from './download-csv.ts';

/** What the export under way is doing: its progress and estimate with Cancel, or the file to save. */
export function ExportProgress({
  state,
  fileName,
  bom,
  onBom,
}: {
  state: ExportState;
  /** The file's name: the address's own with its name, the subject's (the whole export) with null. */
  fileName: (name: string | null) => string;
  /** Whether the files saved start with UTF-8's byte-order mark, and the user's change of it. */
  bom: boolean;
  onBom: (bom: boolean) => void;
}) {
  if (state.phase === 'idle' && state.saved) {
    const { files, rows } = state.saved;
    return (
      <p role="status" className="note">
        Saved {files.length === 1 ? files[0] : `${files.length} files`} ({rows} row{rows === 1 ? '' : 's'}) to this
        device’s downloads.
      </p>
    );
  }
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
  return <ExportReady state={state} fileName={fileName} bom={bom} onBom={onBom} />;
}

/**
 * The files to save when pressing Export did not save one at once (ExportDialog): one an address (what a tax tool
 * imports as a wallet), or for several addresses all in one with a Wallet column; or an export made before a reload.
 */
function ExportReady({
  state,
  fileName,
  bom,
  onBom,
}: {
  state: Extract<ExportState, { phase: 'ready' }>;
  fileName: (name: string | null) => string;
  bom: boolean;
  onBom: (bom: boolean) => void;
}) {
  const [savedFiles, setSavedFiles] = useState<{ name: string; rows: number }[]>([]);
  const { result } = state;
  const save = (text: string, name: string, rows: number) => {
    saveCsvFile(text, name, bom);
    setSavedFiles((before) => [...before.filter((file) => file.name !== name), { name, rows }]);
  };
  const single = result.files.length === 1 ? result.files[0]! : null;
  return (
    <div className="export-ready">
      {state.resumed && (
        <div className="export-earlier">
          <p className="note">The export you started earlier ({rangeWords(state.job)}) is ready, not saved yet.</p>
          <button type="button" onClick={() => void historyExports.discard()}>
            Discard it and choose new dates
          </button>
        </div>
      )}
      <p>
        The CSV is ready: {result.rows} row{result.rows === 1 ? '' : 's'}
        {single ? '' : ` for ${result.files.length} addresses`}.
      </p>
      {result.missing.length > 0 && (
        <div role="status">
          <p>Not all in the file (export again once the node can be reached):</p>
          <ul className="export-missing">
            {result.missing.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      <ByteOrderMarkChoice checked={bom} onChange={onBom} />
      {single ? (
        <button
          type="button"
          className="primary"
          onClick={() => {
            save(single.csv, fileName(null), single.rows);
            void historyExports.saved({ files: [fileName(null)], rows: single.rows });
          }}
        >
          Save the CSV
        </button>
      ) : (
        <>
          <p className="note">One file per address: a tax tool imports each as one wallet.</p>
          <ul className="export-files">
            {result.files.map((file) => (
              <li key={file.principal}>
                <button type="button" onClick={() => save(file.csv, fileName(file.name), file.rows)}>
                  Save {file.name} ({file.rows} row{file.rows === 1 ? '' : 's'})
                </button>
              </li>
            ))}
          </ul>
          <p className="note">
            Or every address in one file, with a Wallet column naming each row’s address (for a spreadsheet; a tax tool
            importing it as one wallet would pair a transfer between two of them as one).
          </p>
          <div className="export-actions">
            <button type="button" onClick={() => save(result.combined, fileName(null), result.rows)}>
              Save one file with a Wallet column
            </button>
            <button
              type="button"
              className="primary"
              onClick={() =>
                // The one file with a Wallet column holds every row; the others, each address's own.
                void historyExports.saved({
                  files: savedFiles.map((file) => file.name),
                  rows: Math.min(
                    result.rows,
                    savedFiles.reduce((sum, file) => sum + file.rows, 0),
                  ),
                })
              }
            >
              Done
            </button>
          </div>
        </>
      )}
    </div>
  );
}

/** An export's dates as the user chose them: "2026-01-01 to 2026-11-30", "all of the history". */
function rangeWords({ from, to }: { from: string | null; to: string | null }): string {
  if (from && to) return `${from} to ${to}`;
  if (from) return `from ${from}`;
  if (to) return `up to ${to}`;
  return 'all of the history';
}
