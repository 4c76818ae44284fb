import './history.css';
import { useRef, useState, type FormEvent } from 'react';
import { historyExports, useHistoryExport } from '../../app/history-exports.ts';
import { rangeProblem } from '../../domain/history/history.ts';
import type { Network } from '../../domain/network.ts';
import { ExportProgress } from './ExportProgress.tsx';

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
 * estimate and Cancel while the history is read onto the device, then the file to save.
 */
export function ExportDialog({ addresses, subject }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const state = useHistoryExport();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const busy = state.phase === 'reading' || state.phase === 'ready';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const wrong = rangeProblem(from, to);
    setProblem(wrong);
    if (wrong) return;
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
        <ExportProgress
          state={state}
          fileName={(name) => `stacks-watch-${slug(name ?? subject)}-${new Date().toISOString().slice(0, 10)}.csv`}
        />
        <button type="button" className="export-close" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </dialog>
    </>
  );
}
