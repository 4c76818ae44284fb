import './transfer.css';
import { useEffect, useMemo, useState } from 'react';
import { useAlertSettings, useAlertStores } from '../../app/alerts-context.tsx';
import { navigate } from '../../app/router.ts';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { planMerge, stampAdded } from '../../domain/watch/list-transfer.ts';
import { decodeShare, missingParts, readParts } from '../../domain/watch/share-code.ts';
import { readTypedPrincipal } from '../../domain/address/typed-principal.ts';
import { applyMerge } from '../../store/list-merge.ts';
import { MergePreview } from './MergePreview.tsx';
import { PartsInput } from './PartsInput.tsx';

/** What a transfer link or code opens: collects the codes, previews what they would change, merges on confirm. */
export function ReceiveScreen() {
  const controller = useWatchlistController();
  const state = useWatchlistState();
  const alertRules = useAlertStores().settings;
  const { rules } = useAlertSettings();
  const [reading, setReading] = useState(() => {
    const fragment = window.location.hash.slice(1);
    return readParts(fragment ? [fragment] : [], []);
  });
  const { parts } = reading;
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The fragment holds the whole list: once read, it leaves the address bar and the history.
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);

  function take(texts: readonly string[]) {
    setReading(readParts(texts, parts));
    setProblem(null);
  }

  const complete = parts.length > 0 && missingParts(parts).length === 0;
  const decoded = useMemo(() => (complete ? decodeShare(parts, readTypedPrincipal, 0) : null), [complete, parts]);
  const plan = useMemo(
    () => (decoded?.ok && state.status === 'ready' ? planMerge(state.entries, rules, decoded.value) : null),
    [decoded, state, rules],
  );

  async function confirm() {
    if (!plan) return;
    setBusy(true);
    const outcome = await applyMerge(stampAdded(plan, Date.now()), { watchlist: controller, alertRules });
    setBusy(false);
    if (outcome.ok) setDone(outcome.value);
    else setProblem(outcome.error);
  }

  function startAgain() {
    setReading({ parts: [], problem: null });
    setProblem(null);
  }

  return (
    <section className="receive" aria-labelledby="receive-heading">
      <h1 id="receive-heading">Add from another device</h1>
      {done ? (
        <>
          <p role="status">{done}</p>
          <div className="button-row">
            <a className="button" href="/" onClick={(event) => (event.preventDefault(), navigate('/'))}>
              Open the watch list
            </a>
          </div>
        </>
      ) : (
        <>
          {(problem ?? reading.problem) && (
            <p role="alert" className="error">
              {problem ?? reading.problem}
            </p>
          )}
          {decoded && !decoded.ok && (
            <p role="alert" className="error">
              {decoded.error}
            </p>
          )}
          {plan ? (
            <MergePreview plan={plan} busy={busy} onConfirm={() => void confirm()} onCancel={() => navigate('/')} />
          ) : (
            !(decoded && !decoded.ok) && <PartsInput parts={parts} onRead={take} />
          )}
          {(parts.length > 0 || reading.problem) && !plan && (
            <div className="button-row">
              <button type="button" onClick={startAgain}>
                Start again
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
