import type { Network } from '../../domain/network.ts';
import type { SenderHealth } from './ops-routes.ts';
import type { NetworkHealth } from '../engine/control.ts';

/** What `--active-devices` bounds: devices whose alerts are in memory, and reads of one put away since start. */
export interface DevicesInMemory {
  readonly devices: number;
  readonly readBack: number;
}

export interface MetricsInput {
  readonly database: boolean;
  /** Devices registered (null when the database could not be asked), and those in memory. */
  readonly devices?: { readonly registered: number | null } & Partial<DevicesInMemory>;
  /** Null when the database could not be asked. */
  readonly sender: SenderHealth | null;
  readonly networks: Partial<Record<Network, NetworkHealth>>;
}

const escape = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');

/** The Prometheus text format (version 0.0.4): each metric with its HELP and TYPE, then its samples. */
export function metricsText({ database, sender, networks, devices }: MetricsInput): string {
  const lines: string[] = [];
  const metric = (name: string, type: 'gauge' | 'counter', help: string, samples: [string, number][]) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${value}`);
  };
  metric('relay_database_up', 'gauge', 'Whether the database answered.', [['', database ? 1 : 0]]);
  const followed = Object.entries(networks) as [Network, NetworkHealth][];
  metric(
    'relay_followed_principals',
    'gauge',
    'Principals followed on each network.',
    followed.map(([network, health]) => [`{network="${network}"}`, health.principals]),
  );
  metric(
    'relay_node_up',
    'gauge',
    "Whether each network's node was reached.",
    followed.map(([network, health]) => [`{network="${network}"}`, health.reachable ? 1 : 0]),
  );
  if (devices) {
    // Every instance on one database reports the same count: aggregate it with max(), not sum().
    if (devices.registered !== null)
      metric('relay_devices', 'gauge', 'Devices registered, the same on every instance of the database.', [
        ['', devices.registered],
      ]);
    if (devices.devices !== undefined)
      metric('relay_devices_in_memory', 'gauge', 'Devices whose alerts this instance holds in memory now.', [
        ['', devices.devices],
      ]);
    if (devices.readBack !== undefined)
      metric(
        'relay_devices_read_back_total',
        'counter',
        'Devices put away when idle and read from the database again since start (--active-devices).',
        [['', devices.readBack]],
      );
  }
  if (!sender) return `${lines.join('\n')}\n`;
  metric('relay_push_queue_depth', 'gauge', 'Alert states waiting to be pushed.', [['', sender.queued]]);
  metric('relay_push_oldest_queued_age_seconds', 'gauge', 'Age of the oldest state waiting to be pushed.', [
    ['', sender.oldestQueuedSeconds ?? 0],
  ]);
  metric(
    'relay_pushes_total',
    'counter',
    "Pushes by the push service's answer (a status, unreachable, or fenced: handed back unposted) since start.",
    Object.entries(sender.answers).map(([answer, count]) => [`{answer="${escape(answer)}"}`, count]),
  );
  metric(
    'relay_push_states_unanswered_total',
    'counter',
    'Alert states whose push went unanswered (each side of a push) since start: each may reach its device twice.',
    [['', sender.unansweredStatesSinceStart]],
  );
  metric('relay_push_failed_total', 'counter', 'States given up (to the dead-letter list) since start.', [
    ['', sender.givenUpSinceStart],
  ]);
  metric('relay_dead_letters', 'gauge', 'States on the dead-letter list.', [['', sender.deadLetters]]);
  return `${lines.join('\n')}\n`;
}
