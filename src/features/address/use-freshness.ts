import { awayOf, isLive, useStatuses } from '../../app/connection-status.ts';
import { useOnline } from '../../app/pwa/use-online.ts';
import { freshness, type Freshness } from '../../domain/state/freshness.ts';
import type { Network } from '../../domain/network.ts';

/**
 * How current an address's figures are: the one rule of domain/state/freshness.ts fed from the device's connection
 * and its network's monitor. Every card of the address page asks here, so that while the node cannot be reached none
 * reads as current beside one that says when it was last updated.
 */
export function useFreshness(syncedAt: number | null, network: Network): Freshness {
  const online = useOnline();
  const statuses = useStatuses();
  return freshness({
    live: online && isLive(statuses, network),
    checkedAt: syncedAt,
    liveUntil: statuses[network]?.liveUntil ?? null,
    away: awayOf(statuses, network, online),
  });
}
