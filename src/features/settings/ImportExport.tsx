import { useId, useState } from 'react';
import { readTypedPrincipal } from '../../domain/address/typed-principal.ts';
import { useAlertStores } from '../../app/alerts-context.tsx';
import { useWatchlistController } from '../../app/watchlist-context.tsx';
import { importWatchlistFile } from '../../store/watchlist-import.ts';
import { downloadWatchlist } from '../watchlist/download-watchlist.ts';

type Outcome = { readonly kind: 'done' | 'error'; readonly message: string } | null;

export function ImportExport() {
  const controller = useWatchlistController();
  const alertRules = useAlertStores().settings;
  const [outcome, setOutcome] = useState<Outcome>(null);
  const inputId = useId();

  function exportFile() {
    const state = controller.getState();
    if (state.status !== 'ready') return;
    downloadWatchlist(state.entries, alertRules.get().rules);
  }

  async function importFile(file: File) {
    const targets = { watchlist: controller, alertRules };
    const imported = await importWatchlistFile(targets, await file.text(), readTypedPrincipal);
    setOutcome(imported.ok ? { kind: 'done', message: imported.value } : { kind: 'error', message: imported.error });
  }

  return (
    <section className="card import-export" aria-labelledby="backup-heading">
      <h2 id="backup-heading">Your watch list</h2>
      <p className="note">
        It lives only on this device. Export it, labels and alert rules included, to a file to keep a copy or to move
        it; importing merges without duplicates and keeps the labels and rules already here.
      </p>
      <div className="button-row">
        <button type="button" onClick={exportFile}>
          Export
        </button>
        <label htmlFor={inputId} className="button">
          Import…
        </label>
        <input
          id={inputId}
          type="file"
          accept="application/json,.json"
          className="visually-hidden"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void importFile(file);
          }}
        />
      </div>
      {outcome?.kind === 'error' && (
        <p role="alert" className="error">
          {outcome.message}
        </p>
      )}
      <p role="status" className="note">
        {outcome?.kind === 'done' ? outcome.message : ''}
      </p>
    </section>
  );
}
