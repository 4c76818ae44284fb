import type { NodeConfig } from '../chain/networks.ts';
import type { StacksRestClient } from '../chain/rest-client.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import { applyDetail, triedUnread, withDetail, type TxDetail } from '../domain/state/tx-detail.ts';
import type { SnapshotPort, TokenPort } from './ports.ts';
import { errorMessage } from '../domain/error-message.ts';

/**
 * Tokens and NFTs of the principals someone looked at: loaded on request (a cold sync stays at two requests),
 * named from the token metadata route, then kept current from each confirmed transaction's balance-changes.
 */
export class HoldingsKeeper {
  constructor(
    private readonly deps: {
      readonly node: NodeConfig;
      readonly rest: StacksRestClient;
      readonly book: SnapshotPort;
      readonly tokens?: TokenPort;
      readonly report?: (problem: string) => void;
    },
  ) {}

  /**
   * Holdings, and every movement of the recent transactions already known whose movements were not read (a first
   * sync's contract calls): what the address page and its transaction details show.
   */
  async load(principal: string): Promise<void> {
    const { rest, book, node } = this.deps;
    try {
      const { tokens, nfts } = await rest.holdings(principal);
      const unread = (book.get(principal)?.recent ?? [])
        .filter(
          (activity) =>
            (activity.status === 'success' && !activity.movements && activity.kind !== 'token_transfer') ||
            triedUnread(activity),
        )
        .slice(0, 20)
        .map((activity) => activity.txId);
      const details = await rest.details(unread);
      book.update(principal, node.network, (snapshot) => ({
        ...snapshot,
        holdings: { tokens, nfts },
        recent: snapshot.recent.map((activity) => {
          const detail = details.get(activity.txId);
          return detail ? withDetail(activity, principal, detail) : activity;
        }),
      }));
      await this.learnTokens([...tokens.keys(), ...[...details.values()].flatMap((detail) => tokensMoved(detail))]);
    } catch (error) {
      this.deps.report?.(`Could not load the tokens of ${principal}: ${errorMessage(error)}`);
    }
  }

  /**
   * New mined contract calls with every movement they made (both parties, mints, burns: one request for up to
   * 20), applied to the snapshot too, and the names and decimals of the tokens they moved, so that what is told
   * says "292 WGOLD" rather than base units. On failure the calls go on without them.
   */
  async detail(principal: string, activities: readonly Activity[]): Promise<readonly Activity[]> {
    const { rest, book, node } = this.deps;
    const calls = activities
      .filter(
        (activity) =>
          (activity.contractCall && activity.status === 'success' && !activity.movements) || triedUnread(activity),
      )
      .map((activity) => activity.txId);
    if (calls.length === 0) return activities;
    try {
      const details = await rest.details(calls);
      for (const [txId, detail] of details)
        book.update(principal, node.network, (snapshot) => applyDetail(snapshot, txId, detail));
      await this.learnTokens([...details.values()].flatMap((detail) => tokensMoved(detail)));
      return activities.map((activity) => {
        const detail = details.get(activity.txId);
        return detail ? withDetail(activity, principal, detail) : activity;
      });
    } catch (error) {
      this.deps.report?.(`Could not read the movements of ${principal}'s contract calls: ${errorMessage(error)}`);
      return activities;
    }
  }

  /** Names, symbols and decimals of tokens not yet in the catalog. */
  async learnTokens(assets: readonly string[]): Promise<void> {
    const catalog = this.deps.tokens;
    if (!catalog) return;
    const contracts = [...new Set(assets.map((asset) => asset.split('::')[0] ?? asset))].filter(
      (contract) => contract !== 'STX' && !catalog.has(contract),
    );
    for (const contract of contracts) {
      try {
        const metadata = await this.deps.rest.tokenMetadata(contract);
        if (metadata) await catalog.add(contract, metadata);
      } catch (error) {
        // Amounts are then said in base units, as such, until a later try succeeds.
        this.deps.report?.(`Could not read the token ${contract}: ${errorMessage(error)}`);
      }
    }
  }
}

/** The fungible tokens a transaction moved: those have metadata to learn (an NFT collection has none there). */
const tokensMoved = (detail: TxDetail): string[] =>
  detail.movements.filter((movement) => movement.type === 'ft').map((movement) => movement.assetIdentifier);
