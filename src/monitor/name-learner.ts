import type { StacksRestClient } from '../chain/rest-client.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import { toldEffect, toldTokenContracts } from '../domain/text/told-effect.ts';
import type { NamePort } from './ports.ts';

/** New counterparties whose BNS names are looked up before one batch is told. */
const MAX_NAME_LOOKUPS = 4;

/** The BNS names of the other parties (at most a few new ones a time), so that words name them. */
export async function learnNames(
  names: NamePort | undefined,
  rest: StacksRestClient,
  activities: readonly Activity[],
  principal: string,
): Promise<void> {
  if (!names) return;
  const parties = new Set<string>();
  for (const activity of activities) {
    for (const movement of activity.movements ?? [])
      for (const party of [movement.sender, movement.recipient]) if (party) parties.add(party);
    if (activity.counterparty) parties.add(activity.counterparty);
    // A pending token transfer's other party, which its words name from its arguments.
    for (const effect of toldEffect(activity, principal).effects)
      effect.counterparties.forEach((party) => parties.add(party));
  }
  const unknown = [...parties].filter(
    (party) => party !== principal && !party.includes('.') && names.get(party) === undefined,
  );
  for (const party of unknown.slice(0, MAX_NAME_LOOKUPS)) {
    try {
      await names.add(party, await rest.bnsName(party));
    } catch {
      // Named by its short address until a later lookup succeeds.
    }
  }
}

/**
 * What the words of a batch need before it is told: the parties' names, and the tokens a pending transfer call moves
 * (told in their units, from the call's arguments: no event has named the token yet).
 */
export async function learnWords(
  deps: { readonly names?: NamePort; readonly rest: StacksRestClient },
  activities: readonly Activity[],
  principal: string,
  learnTokens: (contracts: readonly string[]) => Promise<void>,
): Promise<void> {
  await learnNames(deps.names, deps.rest, activities, principal);
  await learnTokens(toldTokenContracts(activities));
}
