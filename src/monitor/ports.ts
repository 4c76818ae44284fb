import type { AlertLedger } from '../domain/alerts/alert-ledger.ts';
import type { AlertRules } from '../domain/alerts/alert-rules.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';
import type { Network } from '../domain/network.ts';
import type { Activity, AddressSnapshot, StxBalance, TokenMetadata } from '../domain/state/snapshot.ts';
import type { StakingChange } from './staking-keeper.ts';

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
  /**
   * The principals whose snapshot says they stake (a staking position, or a balance on pox-5), where the book keeps
   * that index: a burn block reads those again, not every principal followed.
   */
  staking?(): Iterable<string>;
}

/** Token metadata by contract id or asset identifier (`contract::name`); it never changes once deployed. */
export interface TokenPort {
  get(assetOrContract: string): TokenMetadata | undefined;
  has(contract: string): boolean;
  add(contract: string, metadata: TokenMetadata): Promise<void>;
  /** How many were learned since the start, where counted: words built before a change may say less. */
  readonly learned?: number;
}

/** BNS names of counterparties: the name, null when it has none, undefined when not looked up yet. */
export interface NamePort {
  get(principal: string): string | null | undefined;
  add(principal: string, name: string | null): Promise<void>;
  /** How many were learned since the start, where counted: words built before a change may say less. */
  readonly learned?: number;
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

/*
 * The monitor's other ports: the node's live feed as the monitor drives it, and where what it learns goes (the
 * alerts: notify/ in the page, the fan-out to devices in the relay).
 */

export interface FeedLike {
  /** Resolves once the new principals' topics are subscribed. */
  setPrincipals(principals: readonly string[]): Promise<void>;
  /** The transactions whose state changes are wanted (the watched addresses' pending ones); resolves to those newly subscribed. */
  setTransactions(txIds: readonly string[]): Promise<readonly string[]> | void;
  close(): void;
  /**
   * Resolves once every event the node sent before now has been handed over: one round trip on the connection, whose
   * frames arrive in order (at once while it is not connected). The REST answers travel on other connections and
   * can overtake the feed; what is to be taken from an answer as older than the feed's events waits for this.
   */
  caughtUp?(): Promise<void>;
  /**
   * Reconnects no sooner than about this long apart while the node cannot be reached over REST either (null: the
   * feed's own pace again), so that the socket and the REST probes back off together.
   */
  pace?(delayMs: number | null): void;
}

/** Where what the monitor learns about transactions goes besides the snapshots: the alerts. */
export interface ActivitySink {
  /**
   * Transactions seen for a principal, in their current state: `live` from the feed, `sync` from a reconcile (what
   * happened while disconnected, or a first sync's history).
   */
  activities(network: Network, principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void;
  /**
   * An address's first sync: its history at chain height `height` and what it had pending. When the node listed more
   * pending than was read, `pendingBefore` is the receipt time (node clock, Unix seconds) of the oldest one read: a
   * pending transaction received no later than it was pending before the watch too.
   */
  baseline(
    network: Network,
    principal: string,
    activities: readonly Activity[],
    height: number | null,
    pendingBefore?: number | null,
  ): void;
  /**
   * Transactions that left the canonical chain (a re-org), and the node's history as read: what the sink told of
   * at heights above `coveredAbove` (all heights when null) and `present` lacks is gone too, though the bounded
   * snapshot no longer holds it.
   */
  reverted(network: Network, principal: string, activities: readonly Activity[], scope?: ReorgScope): void;
  balance(network: Network, principal: string, before: StxBalance | null, after: StxBalance): void;
  /** A principal's PoX-5 staking as read (before is null on its first read: history). */
  staking?(network: Network, principal: string, change: StakingChange): void;
  /** A block was announced again at `height` (a re-org): what is mined from there on can be new. */
  forked(network: Network, principal: string, height: number): void;
  /** Whether token movements of new contract calls are wanted (one more request), i.e. the principal is past its first sync. */
  wantsDetail(network: Network, principal: string): boolean;
}

export interface ReorgScope {
  readonly coveredAbove: number | null;
  readonly present: ReadonlySet<string>;
  /** The lowest height the new fork may have rewritten: what is mined there now can be new, whatever it was. */
  readonly forkFrom: number | null;
}
