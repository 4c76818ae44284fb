import './history.css';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { historyExports, useHistoryExport, type ExportState } from '../../app/history-exports.ts';
import { rangeProblem } from '../../domain/history/history.ts';
import type { Network } from '../../domain/network.ts';
import { ByteOrderMarkChoice } from './ByteOrderMarkChoice.tsx';
import { saveCsvFile } from './download-csv.ts';
import { ExportProgress } from './ExportProgress.tsx';
import type { RunResult } from '../../app/history-runner.ts';

interface Props {
  readonly addresses: readonly { readonly network: Network; readonly principal: string }[];
  /** "Alice", "the watch list": what the button and the file name say. */
  readonly subject: string;
}

const slug = (text: string) =>
  text
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40) || 'history';

/**
 * Export CSV (Koinly's universal format) of one address or the whole list: a date range, then progress with an
 * estimate and Cancel while the history is read onto the device, then the file saved, as Export promised. Several
 * addresses' files are offered one by one instead (a browser asks before a page saves many files at once), and so is
 * a file that lacks what could not be read, beside what it lacks.
 */
export function ExportDialog({ addresses, subject }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const state = useHistoryExport();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [bom, setBom] = useState(true);
  /**
   * Export was pressed here and its file is not made yet (the state it was pressed in; null when not pressed): it is
   * saved the moment it is made, whole, and until the saving is stored the dialog says so (no "Save the CSV" to press
   * for a file saved already).
   */
  const [pressedIn, setPressedIn] = useState<ExportState | null>(null);
  const savedResult = useRef<unknown>(null);
  const busy = state.phase === 'reading' || state.phase === 'ready';
  const fileName = (name: string | null) =>
    `stacks-watch-${slug(name ?? subject)}-${new Date().toISOString().slice(0, 10)}.csv`;
  const whole = state.phase === 'ready' ? wholeFile(state.result) : null;
  // The press arms the save for the run it starts: once the state has moved on from the one it was pressed in (a
  // press after a Cancel is made in the cancelled state), a run that stops, runs elsewhere or lacks something
  // (offline: the file waits for the user, beside the list of what it lacks) disarms it.
  const stopped = state.phase === 'cancelled' || state.phase === 'failed' || state.phase === 'elsewhere';
  if (pressedIn && state !== pressedIn && (stopped || (state.phase === 'ready' && !whole))) setPressedIn(null);
  const savesItself = pressedIn !== null && whole !== null;

  useEffect(() => {
    if (!savesItself || state.phase !== 'ready' || savedResult.current === state.result) return;
    savedResult.current = state.result;
    const name = fileName(null);
    saveCsvFile(whole.csv, name, bom);
    void historyExports.saved({ files: [name], rows: whole.rows }).finally(() => setPressedIn(null));
    // Only a new state can make the file: the name and the mark are read as they are then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, savesItself]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = rangeProblem(from, to);
    setProblem(wrong);
    if (wrong) return;
    setPressedIn(state);
    void historyExports.start({ addresses, from: from || null, to: to || null });
  };

  return (
    <>
      <button type="button" onClick={() => dialog.current?.showModal()}>
        Export CSV…
      </button>
      <dialog
        ref={dialog}
        className="export-dialog"
        aria-labelledby="export-heading"
        onClose={() => historyExports.forgetSaved()}
      >
        <h2 id="export-heading">Export {subject} as CSV</h2>
        <p className="note">
          One row per asset moved, in Koinly’s universal format (other tax tools read it too), one file per address; a
          fee paid for nothing else (a failed transaction) is a row of its own labelled “cost”. The history is read from
          the node at its pace and kept on this device.
        </p>
        {!busy && (
          <form onSubmit={submit} noValidate>
            <label>
              From <input type="date" value={from} onChange={(event) => setFrom(event.target.value)} />
            </label>
            <label>
              To <input type="date" value={to} onChange={(event) => setTo(event.target.value)} />
            </label>
            <ByteOrderMarkChoice checked={bom} onChange={setBom} />
            {problem && (
              <p role="alert" className="error">
                {problem}
              </p>
            )}
            <button type="submit" className="primary">
              Export
            </button>
          </form>
        )}
        {savesItself ? (
          <p role="status" className="note">
            Saving the file…
          </p>
        ) : (
          <ExportProgress state={state} fileName={fileName} bom={bom} onBom={setBom} />
        )}
        <button type="button" className="export-close" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </dialog>
    </>
  );
}

/** The export's one file when it is whole (one address, nothing left unread): what Export saves by itself. */
function wholeFile(result: RunResult): RunResult['files'][number] | null {
  const [file, ...others] = result.files;
  return file && others.length === 0 && result.missing.length === 0 ? file : null;
}
