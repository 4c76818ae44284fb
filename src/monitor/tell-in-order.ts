import type { NodeConfig } from '../chain/networks.ts';
import type { StacksRestClient } from '../chain/rest-client.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import type { HoldingsKeeper } from './holdings-keeper.ts';
import { learnNames } from './name-learner.ts';
import type { OrderedSink } from './ordered-sink.ts';
import type { NamePort, SnapshotPort } from './ports.ts';

export interface TellDeps {
  readonly node: NodeConfig;
  readonly rest: StacksRestClient;
  readonly book: SnapshotPort;
  readonly names?: NamePort;
  readonly sink: OrderedSink;
  readonly holdings: HoldingsKeeper;
}

/**
 * Hands new transactions to the sink, in order with everything else, with their movements when it (or a screen)
 * wants them, and the names of their other parties.
 */
export function tellInOrder(
  deps: TellDeps,
  principal: string,
  activities: readonly Activity[],
  source: 'live' | 'sync',
): void {
  const { node, book, sink, holdings } = deps;
  sink.after(async () => {
    const wanted = sink.wantsDetail(node.network, principal) || book.get(principal)?.holdings;
    const detailed = wanted ? await holdings.detail(principal, activities) : activities;
    // Whether a token that came in was held before (the spam guard) needs the holdings: read once, when first needed.
    if (wanted && !book.get(principal)?.holdings && detailed.some((activity) => receivesTokens(activity, principal)))
      await holdings.load(principal);
    await learnNames(deps.names, deps.rest, detailed, principal);
    return (told) => told.activities(node.network, principal, detailed, source);
  });
}

const receivesTokens = (activity: Activity, principal: string): boolean =>
  (activity.movements ?? []).some((movement) => movement.type !== 'stx' && movement.recipient === principal);
