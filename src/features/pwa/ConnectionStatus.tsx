import { useStatuses } from '../../app/connection-status.ts';
import { NETWORK_LABEL, NETWORKS } from '../../domain/network.ts';

const WORDS = { connecting: 'connecting', live: 'live', reconnecting: 'reconnecting', offline: 'offline' } as const;

/** Each followed network's connection: live, reconnecting or offline, and when the last event came. */
export function ConnectionStatus() {
  const statuses = useStatuses();
  const shown = NETWORKS.flatMap((network) => {
    const status = statuses[network];
    return status ? [{ network, status }] : [];
  });
  if (shown.length === 0) return null;
  return (
    // Not a list: on the home screen, list items are the watched addresses.
    <p className="connections">
      {shown.map(({ network, status }) => {
        const last = status.lastEventAt ? `; last event ${new Date(status.lastEventAt).toLocaleTimeString()}` : '';
        const problem = status.problem ? `; ${status.problem}` : '';
        return (
          <span
            key={network}
            className={`connection connection-${status.feed}`}
            title={`${status.node}${last}${problem}`}
          >
            {NETWORK_LABEL[network]} {WORDS[status.feed]}
            {status.syncing ? ', syncing' : ''}
            {status.problem ? <span className="connection-problem"> (see details)</span> : null}
          </span>
        );
      })}
    </p>
  );
}
