import type { Activity, AssetChange, StxBalance, TokenMetadata } from '../domain/state/snapshot.ts';
import type { TxDetail } from '../domain/state/tx-detail.ts';
import { decodeStatus, type ChainTip, type Page } from './decode.ts';
import type { RecentTx } from './decode-recent.ts';
import { readMempool, readMempoolOf, type MempoolRead } from './mempool-reads.ts';
import { readBnsName, readTokenMetadata } from './name-reads.ts';
import type { NodeConfig } from './networks.ts';
import { NodeRest } from './node-rest.ts';
import { platformFetch } from './outbound.ts';
import { PageValidators } from './page-validators.ts';
import {
  readBalanceChanges,
  readHoldings,
  readStxBalance,
  readTransactions,
  type PrincipalRoutes,
  type UNCHANGED,
} from './principal-reads.ts';
import type { HostScheduler } from './scheduler.ts';
import {
  readBlockAt,
  readDetails,
  readEventParties,
  readRecentBlocks,
  readRecentTransactions,
  readTransaction,
} from './tx-reads.ts';
import { V3Routes } from './v3-routes.ts';

export { NodeError } from './node-rest.ts';
export { TX_PAGE_LIMIT, UNCHANGED } from './principal-reads.ts';
export { DETAIL_BATCH, RECENT_PAGE_LIMIT } from './tx-reads.ts';
export type { MempoolRead };

export interface RestClientOptions {
  /** Whether the node has the v3 routes, when learned before (by an earlier run): no probe then. */
  readonly knownV3?: boolean | null;
  /** Called once when a probe tells whether the node has the v3 routes. */
  readonly onV3Learned?: (v3: boolean) => void;
  /** The history pages' ETags, shared with an earlier client of the same node (as a browser's HTTP cache keeps them). */
  readonly validators?: PageValidators;
}

/**
 * One node's REST API: the v3 principal routes, or the v1/v2 routes of an older node (detected once, from a 404
 * on v3). Every answer is validated and decoded; a malformed one throws, and nothing of it is returned. The reads
 * live by what they read: one principal (`principal-reads.ts`), its mempool (`mempool-reads.ts`), the chain's
 * blocks and transactions (`tx-reads.ts`), token and BNS names (`name-reads.ts`), all over `node-rest.ts`.
 */
export class StacksRestClient {
  private readonly rest: NodeRest;
  private readonly routes: PrincipalRoutes;

  constructor(
    readonly node: NodeConfig,
    scheduler: HostScheduler,
    fetchImpl: typeof fetch = platformFetch,
    options: RestClientOptions = {},
  ) {
    this.rest = new NodeRest(node, scheduler, fetchImpl);
    const v3 = new V3Routes(options.knownV3, options.onV3Learned);
    this.routes = { rest: this.rest, v3, validators: options.validators ?? new PageValidators() };
  }

  /** null until the first v3 call tells (or an earlier run told). */
  get usesV3(): boolean | null {
    return this.routes.v3.known;
  }

  /**
   * Forgets the ETags held: after a re-org, a page can be back to what it was at the last fetch, and a 304 would
   * then hide that transactions learned since (from events) are gone.
   */
  forgetValidators(): void {
    this.routes.validators.forget();
  }

  /** Forgets one principal's ETags: what was read under them did not reach the snapshot (the sync failed). */
  forgetValidatorsOf(principal: string): void {
    this.routes.validators.forgetOf(principal);
  }

  async status(): Promise<ChainTip> {
    const { data, response } = await this.rest.api.GET('/extended', {});
    return decodeStatus(this.rest.ok(response, data));
  }

  stxBalance(principal: string): Promise<StxBalance> {
    return readStxBalance(this.routes, principal);
  }

  /** `signal`: the caller's, for a read the user can cancel (an export): it leaves the host's queue at once. */
  transactions(
    principal: string,
    cursor: string | null,
    signal?: AbortSignal,
  ): Promise<Page<Activity> | typeof UNCHANGED> {
    return readTransactions(this.routes, principal, cursor, signal);
  }

  holdings(principal: string): Promise<{ tokens: Map<string, bigint>; nfts: Map<string, number> }> {
    return readHoldings(this.routes, principal);
  }

  balanceChanges(principal: string, txIds: readonly string[]): Promise<Map<string, AssetChange[]>> {
    return readBalanceChanges(this.routes, principal, txIds);
  }

  tokenMetadata(contractId: string): Promise<TokenMetadata | null> {
    return readTokenMetadata(this.rest, contractId);
  }

  mempool(): Promise<{ results: unknown[]; total: number }> {
    return readMempool(this.rest);
  }

  mempoolOf(principal: string): Promise<MempoolRead> {
    return readMempoolOf(this.rest, principal);
  }

  details(txIds: readonly string[], signal?: AbortSignal): Promise<Map<string, TxDetail>> {
    return readDetails(this.rest, txIds, signal);
  }

  blockAt(height: number): Promise<ChainTip | null> {
    return readBlockAt(this.rest, height);
  }

  recentBlocks(limit: number): Promise<ChainTip[]> {
    return readRecentBlocks(this.rest, limit);
  }

  recentTransactions(offset: number): Promise<Page<RecentTx> & { offset: number }> {
    return readRecentTransactions(this.rest, offset);
  }

  eventParties(txIds: readonly string[]): Promise<Map<string, string[]>> {
    return readEventParties(this.rest, txIds);
  }

  transaction(txId: string): Promise<unknown> {
    return readTransaction(this.rest, txId);
  }

  bnsName(address: string): Promise<string | null> {
    return readBnsName(this.rest, address);
  }
}
