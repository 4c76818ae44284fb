import './transfer.css';
import { useEffect, useMemo, useState } from 'react';
import { useAlertSettings, useAlertStores } from '../../app/alerts-context.tsx';
import { keptParts as kept } from '../../app/kept-parts.ts';
import { navigate } from '../../app/router.ts';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { planMerge, stampAdded } from '../../domain/watch/list-transfer.ts';
import { decodeShare, missingParts, readParts, readSharePart, type SharePart } from '../../domain/watch/share-code.ts';
import { readTypedPrincipal } from '../../domain/address/typed-principal.ts';
import { applyMerge } from '../../store/list-merge.ts';
import { MergePreview } from './MergePreview.tsx';
import { PartsInput } from './PartsInput.tsx';

/**
 * A link opened here (`fragment`, maybe empty) added to the codes read so far: those on screen, else those this device
 * kept for the link's list from earlier pages, else those of the list read most recently.
 */
function readLink(fragment: string, onScreen: readonly SharePart[], now: number) {
  const part = fragment ? readSharePart(fragment) : null;
  const known = onScreen.length > 0 ? onScreen : kept.load(now, part?.ok ? part.value.set : undefined);
  return readParts(fragment ? [fragment] : [], known);
}

/** Takes the fragment out of the address bar and the history: it holds the whole list. */
function forgetFragment() {
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
}

/** What a transfer link or code opens: collects the codes, previews what they would change, merges on confirm. */
export function ReceiveScreen() {
  const controller = useWatchlistController();
  const state = useWatchlistState();
  const alertRules = useAlertStores().settings;
  const { rules } = useAlertSettings();
  const [reading, setReading] = useState(() => readLink(window.location.hash.slice(1), [], Date.now()));
  const { parts } = reading;
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(forgetFragment, []);
  // The next link of the sequence opened in this tab changes only the fragment: no new page, a hashchange.
  useEffect(() => {
    const onHashChange = () => {
      const fragment = window.location.hash.slice(1);
      if (!fragment) return;
      forgetFragment();
      setDone(null);
      setProblem(null);
      setReading((current) => readLink(fragment, current.parts, Date.now()));
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  useEffect(() => kept.save(parts, Date.now()), [parts]);

  function take(texts: readonly string[]) {
    setReading((current) => readParts(texts, current.parts));
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
    if (!outcome.ok) {
      setProblem(outcome.error);
      return;
    }
    kept.clear(parts[0]?.set);
    setReading({ parts: [], problem: null });
    setDone(outcome.value);
  }

  function startAgain() {
    kept.clear(parts[0]?.set);
    setReading({ parts: [], problem: null });
    setProblem(null);
  }

  function cancel() {
    kept.clear(parts[0]?.set);
    navigate('/');
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
            <MergePreview plan={plan} busy={busy} onConfirm={() => void confirm()} onCancel={cancel} />
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
