import type { WatchEntry } from '../domain/watch/watch-entry.ts';
import type { Principal } from '../domain/address/address.ts';
import type { Result } from '../domain/result.ts';
import type { WatchlistDamage } from '../domain/text/storage-messages.ts';
import type { Removal, WatchList } from '../domain/watch/watchlist.ts';
import type { KeptUndo } from '../domain/watch/removal-journal.ts';

export type WatchlistState =
  | { readonly status: 'loading' }
  | {
      readonly status: 'ready';
      readonly entries: WatchList;
      readonly notice: string | null;
      readonly saveError: string | null;
      /** The stored record did not read whole: it is not saved over until the user chooses (`replaceDamaged`). */
      readonly damaged: DamagedList | null;
    }
  /** `raw`: the stored record, for the user to download. */
  | { readonly status: 'read-only'; readonly version: number; readonly raw: unknown; readonly place: string }
  | { readonly status: 'failed'; readonly reason: string };

export interface DamagedList {
  readonly damage: WatchlistDamage;
  /** The record as stored, and where. */
  readonly raw: unknown;
  readonly place: string;
}

/** What other tabs hear about; a tab that hears it reloads the list from storage. */
export interface ChangeChannel {
  postMessage(message: 'changed'): void;
  addEventListener(type: 'message', listener: () => void): void;
  removeEventListener(type: 'message', listener: () => void): void;
}

/** The watch list as the app sees it, built by createWatchlistController (store/watchlist-controller.ts). */
export interface WatchlistController {
  getState(): WatchlistState;
  subscribe(listener: () => void): () => void;
  load(): Promise<void>;
  /** `name`: the BNS name the address was found by, if any. */
  add(principal: Principal, label: string, name?: string): Result<void, string>;
  rename(principal: string, label: string): Result<void, string>;
  remove(principal: string): Removal | null;
  undo(removal: Removal): void;
  /** The Undo of `removal` runs until `until` (epoch ms), or is over (null): kept so that it outlives a reload. */
  keepUndo(removal: Removal, until: number | null): void;
  /** Once, after the first load: the removal whose Undo was still running when the page before this one went away. */
  takeKeptUndo(): KeptUndo | null;
  /** Moves an entry by `offset` places (negative is up). */
  move(principal: string, offset: number): void;
  /** Merges entries read from a file (store/watchlist-import.ts): those already watched or repeated are skipped. */
  merge(imported: readonly WatchEntry[]): Result<{ added: number; skipped: number }, string>;
  /** Adds several principals at once (the devnet's demo accounts); those already watched are skipped. */
  watchAll(items: readonly { principal: Principal; label: string }[]): { added: number; skipped: number };
  dismissNotice(): void;
  /** The user's choice on a damaged record: the list on screen is saved, the damaged record kept beside it. */
  replaceDamaged(): Promise<void>;
  /** Writes the list on screen again (the stored one was deleted under the app). */
  resave(): void;
  /** Resolves once every change made so far is in storage. */
  saved(): Promise<void>;
  close(): void;
}
