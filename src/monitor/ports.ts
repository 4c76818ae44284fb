import type { AlertLedger } from '../domain/alerts/alert-ledger.ts';
import type { AlertRules } from '../domain/alerts/alert-rules.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';
import type { Network } from '../domain/network.ts';
import type { AddressSnapshot, TokenMetadata } from '../domain/state/snapshot.ts';

/**
 * What the engine (monitor/, notify/) needs from storage, declared beside it: the page implements these on
 * IndexedDB (store/), the relay on SQL (relay/). No engine module names a storage technology.
 */

/** Every followed principal's last known state, kept in memory; writes may be stored behind the changes. */
export interface SnapshotPort {
  get(principal: string): AddressSnapshot | undefined;
  all(): AddressSnapshot[];
  update(principal: string, network: Network, change: (snapshot: AddressSnapshot) => AddressSnapshot): AddressSnapshot;
  forget(principals: readonly string[]): Promise<void>;
  /**
   * The principals whose snapshot holds pending transactions, where the book keeps that index (a relay following
   * thousands of principals); without it every watched principal is looked at.
   */
  withPending?(): Iterable<string>;
}

/** Token metadata by contract id or asset identifier (`contract::name`); it never changes once deployed. */
export interface TokenPort {
  get(assetOrContract: string): TokenMetadata | undefined;
  has(contract: string): boolean;
  add(contract: string, metadata: TokenMetadata): Promise<void>;
}

/** BNS names of counterparties: the name, null when it has none, undefined when not looked up yet. */
export interface NamePort {
  get(principal: string): string | null | undefined;
  add(principal: string, name: string | null): Promise<void>;
}

/** What the alerts have seen, one ledger per `network:principal`. */
export interface AlertLedgerPort {
  load(): Promise<Map<string, AlertLedger>>;
  save(ledgers: readonly AlertLedger[]): Promise<void>;
}

export type InboxChange = (entry: InboxEntry | undefined) => InboxEntry | undefined;

/** Every alert raised, stored before it is shown (it is also the outbox). */
export interface InboxPort {
  load(): Promise<void>;
  get(id: string): InboxEntry | undefined;
  list(): readonly InboxEntry[];
  change(changes: ReadonlyMap<string, InboxChange>): Promise<InboxEntry[]>;
}

/** While the app is open and focused: an in-app toast (default) or the system notification all the same. */
export type WhileOpen = 'toast' | 'system';

/** The alert rules of each address, and how alerts show while the app is open. */
export interface AlertRulesPort {
  get(): { readonly whileOpen: WhileOpen };
  rulesFor(network: Network, principal: string): AlertRules;
}
