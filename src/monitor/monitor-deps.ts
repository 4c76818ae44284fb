import type { FeedHandlers } from '../chain/feed.ts';
import type { NodeConfig } from '../chain/networks.ts';
import type { StacksRestClient } from '../chain/rest-client.ts';
import type { StakingReader } from '../chain/staking-reader.ts';
import type { AnchorPort } from './change-scout.ts';
import type { ActivitySink, FeedLike, NamePort, SnapshotPort, TokenPort } from './ports.ts';

/** What a NetworkMonitor works with: its node and the client for it, where it keeps what it learns, where it tells it. */
export interface MonitorDeps {
  readonly node: NodeConfig;
  readonly rest: StacksRestClient;
  readonly book: SnapshotPort;
  readonly tokens?: TokenPort;
  /** BNS names of counterparties, looked up before what involves them is told. */
  readonly names?: NamePort;
  readonly openFeed: (handlers: FeedHandlers) => FeedLike;
  readonly now?: () => number;
  /** Something a node sent that was refused (malformed, unexpected): reported, never stored. */
  readonly report?: (problem: string) => void;
  /** Without a live feed (WebSockets blocked, node down), sync over REST after this long, then every `restPollMs`. */
  readonly feedlessSyncMs?: number;
  readonly restPollMs?: number;
  /** After a sync that failed (the node refused or was unreachable), try again after this long, doubling each time. */
  readonly retryMs?: number;
  readonly sink?: ActivitySink;
  /** Reads PoX-5 staking; without it, staking is not followed. */
  readonly staking?: StakingReader;
  /** Where the block that every principal was last complete up to is kept (in memory when not given). */
  readonly anchors?: AnchorPort;
}
