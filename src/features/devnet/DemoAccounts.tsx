import { useState } from 'react';
import { useDemoAccounts } from '../../app/use-demo-accounts.ts';
import { useWatchlistController, useWatchlistState } from '../../app/watchlist-context.tsx';
import { indexOfPrincipal } from '../../domain/watchlist.ts';

/** Shown only when the app was started next to a local devnet (`npm start`): its demo accounts, one tap away. */
export function DemoAccounts() {
  const demo = useDemoAccounts();
  const state = useWatchlistState();
  const controller = useWatchlistController();
  const [outcome, setOutcome] = useState('');
  if (demo.status === 'none' || state.status !== 'ready') return null;
  if (demo.status === 'unreachable') {
    return (
      <p className="note devnet-panel">
        The local devnet at {demo.url} is not answering ({demo.reason}). Is <code>npm start</code> still running?
      </p>
    );
  }
  const unwatched = demo.accounts.filter((account) => indexOfPrincipal(state.entries, account.principal.principal) < 0);
  return (
    <section className="devnet-panel" aria-labelledby="devnet-heading">
      <h2 id="devnet-heading">Local devnet</h2>
      <p className="note">
        A local Stacks devnet at {demo.url} stands in for testnet, with {demo.accounts.length} demo accounts and
        activity every few seconds.
      </p>
      {unwatched.length > 0 ? (
        <button
          type="button"
          className="primary"
          onClick={() => {
            const { added } = controller.watchAll(unwatched);
            setOutcome(`Now watching ${added} demo ${added === 1 ? 'account' : 'accounts'}.`);
          }}
        >
          Add {unwatched.length === demo.accounts.length ? 'the' : `${unwatched.length} more`} demo accounts
        </button>
      ) : (
        <p className="note">All demo accounts are on your watch list.</p>
      )}
      <p role="status" className="visually-hidden">
        {outcome}
      </p>
    </section>
  );
}
