import type { Network } from '../../domain/network.ts';
import type { WatchEntry } from '../../domain/watch/watch-entry.ts';
import { AlertLedgerStore } from '../../store/alert-ledger-store.ts';
import type { NameBook } from '../../store/name-book.ts';
import type { AlertSettingsStore } from '../../store/alert-settings-store.ts';
import type { Inbox } from '../../store/inbox.ts';
import type { SnapshotBook } from '../../store/snapshot-book.ts';
import type { TokenCatalog } from '../../store/token-catalog.ts';
import type { WatchlistController } from '../../store/watchlist-state.ts';
import { Alerter } from '../../notify/alerter.ts';
import type { Deliver } from '../../notify/deliveries.ts';
import { pageTextContext } from './page-text.ts';

export interface AlertsDeps {
  readonly watchlist: WatchlistController;
  readonly book: SnapshotBook;
  readonly tokens: TokenCatalog;
  readonly inbox: Inbox;
  readonly settings: AlertSettingsStore;
  readonly deliver: Deliver;
  readonly away?: () => boolean;
  readonly ledgers?: AlertLedgerStore;
  /** BNS names of counterparties, as the engine learned them. */
  readonly names?: NameBook;
  readonly now?: () => number;
  readonly report?: (problem: string) => void;
}

/** The alerts of the tab that runs the engine, over the app's stores; `start` it before the monitors connect. */
export function createAlerter({
  watchlist,
  book,
  tokens,
  names,
  inbox,
  settings,
  deliver,
  away,
  ledgers,
  now,
  report,
}: AlertsDeps) {
  const entries = (): readonly WatchEntry[] => {
    const state = watchlist.getState();
    return state.status === 'ready' ? state.entries : [];
  };
  const entryOf = (principal: string): WatchEntry | undefined =>
    entries().find((entry) => entry.principal === principal);
  const text = pageTextContext({ entries, ...(names ? { names } : {}), tokens, snapshots: book });
  return new Alerter({
    ledgers: ledgers ?? new AlertLedgerStore(),
    inbox,
    settings,
    watched: (network: Network, principal: string) => {
      const entry = entryOf(principal);
      return entry?.network === network ? entry : undefined;
    },
    snapshot: (principal) => book.get(principal),
    text,
    deliver,
    ...(away ? { away } : {}),
    ...(now ? { now } : {}),
    ...(report ? { report } : {}),
  });
}
