import './devnet.css';
import { useOnline } from '../../app/pwa/use-online.ts';
import { useDemoAccounts } from '../../app/use-demo-accounts.ts';
import { useDismissal } from '../../app/use-dismissal.ts';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { indexOfPrincipal } from '../../domain/watch/watchlist.ts';
import { Icon } from '../../ui/Icon.tsx';
import { CLOSE_ICON } from '../../ui/icons-extra.ts';
import { useUndoOffer } from '../../app/undo-offer.ts';

/**
 * Shown only when the app was started next to a local devnet (`npm start`): a small card offering its demo
 * accounts in one tap, closed for good with its ×, and gone while every one of them is watched (there is nothing
 * left to offer). `onAdded` says what was added, for the screen's own status line: the card is gone by then.
 */
export function DemoAccounts({ onAdded }: { onAdded: (said: string) => void }) {
  const demo = useDemoAccounts();
  const state = useWatchlistState();
  const controller = useWatchlistController();
  const [dismissed, dismiss] = useDismissal('devnet-card');
  const online = useOnline();
  const undo = useUndoOffer();
  if (demo.status === 'none' || state.status !== 'ready' || dismissed) return null;
  const close = (
    <button type="button" className="quiet icon-button" aria-label="Hide the devnet card" onClick={dismiss}>
      <Icon path={CLOSE_ICON} size={18} />
    </button>
  );
  if (demo.status === 'unreachable') {
    return (
      <div className="devnet-card">
        <p className="note">
          {online ? (
            <>
              The local devnet is not answering: {demo.reason}. Is <code>npm start</code> still running?
            </>
          ) : (
            'The local devnet is out of reach while this device is offline.'
          )}
        </p>
        {close}
      </div>
    );
  }
  // One whose removal can still be undone counts as watched: the card does not come back while Undo shows.
  const undoable = undo?.removal.entry.principal;
  const unwatched = demo.accounts.filter(
    (account) =>
      indexOfPrincipal(state.entries, account.principal.principal) < 0 && account.principal.principal !== undoable,
  );
  const count = unwatched.length;
  if (count === 0) return null;
  return (
    <section className="devnet-card" aria-labelledby="devnet-heading">
      <div className="devnet-text">
        <h2 id="devnet-heading">Local devnet</h2>
        <p className="note" title={demo.url}>
          {count === demo.accounts.length
            ? `${count} demo accounts with activity every few seconds.`
            : `${count} of the ${demo.accounts.length} demo accounts ${count === 1 ? 'is' : 'are'} not on your watch list.`}
        </p>
      </div>
      <button
        type="button"
        className="primary"
        onClick={() => {
          const { added } = controller.watchAll(unwatched);
          onAdded(`Now watching ${added} demo ${added === 1 ? 'account' : 'accounts'}.`);
        }}
      >
        {count === demo.accounts.length ? 'Add the demo accounts' : `Add ${count} more`}
      </button>
      {close}
    </section>
  );
}
