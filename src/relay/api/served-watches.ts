import type { Network } from '../../domain/network.ts';
import type { UnwatchedAddress } from '../../domain/relay/relay-device.ts';
import type { Watch } from '../storage/devices.ts';

/**
 * A device's list split by what this relay can follow: it watches the addresses of the networks it has a node for
 * and names the others with why, rather than refusing the whole device for one address of another network. Only
 * the followed ones are stored: the relay learns no more than it uses, and the device sends its whole list again on
 * its next start, so a relay later given that network's node picks them up.
 */
export function servedWatches(
  watches: readonly Watch[],
  served: readonly Network[],
): { watched: Watch[]; unwatched: UnwatchedAddress[] } {
  const watched: Watch[] = [];
  const unwatched: UnwatchedAddress[] = [];
  for (const watch of watches) {
    if (served.includes(watch.network)) watched.push(watch);
    else
      unwatched.push({
        network: watch.network,
        principal: watch.principal,
        reason: `this relay follows no ${watch.network} node (it follows ${served.join(' and ') || 'no network'})`,
      });
  }
  return { watched, unwatched };
}
