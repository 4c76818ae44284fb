import { useWatchlistState } from '../../app/watchlist-context.tsx';
import { middleEllipsis } from '../../domain/address/middle-ellipsis.ts';
import { NETWORK_LABEL } from '../../domain/network.ts';
import type { UnwatchedAddress } from '../../domain/relay/relay-device.ts';

/**
 * The addresses the relay said it cannot watch (a network it follows no node for), each by the name the user gave
 * it, with the relay's reason: they get alerts only while the app is open, and the user should know which.
 */
export function RelayUnwatched({ unwatched }: { unwatched: readonly UnwatchedAddress[] }) {
  const state = useWatchlistState();
  if (unwatched.length === 0) return null;
  const entries = state.status === 'ready' ? state.entries : [];
  const nameOf = (principal: string): string => {
    const entry = entries.find((candidate) => candidate.principal === principal);
    return entry?.label || entry?.name || middleEllipsis(principal);
  };
  const count = unwatched.length;
  return (
    <div className="notice relay-unwatched" role="note">
      <p>
        The relay cannot watch {count === 1 ? 'one of your addresses' : `${count} of your addresses`}: no alerts reach
        you for {count === 1 ? 'it' : 'them'} while the app is closed. While it is open, Stacks Watch alerts them as
        usual.
      </p>
      <ul>
        {unwatched.map(({ network, principal, reason }) => (
          <li key={`${network}:${principal}`}>
            <strong>{nameOf(principal)}</strong> ({NETWORK_LABEL[network]}): {reason}
          </li>
        ))}
      </ul>
    </div>
  );
}
