import type { NodeConfig } from './networks.ts';
import { HostScheduler } from './scheduler.ts';

/**
 * One request scheduler per node and pace in the page: the live engine and a history download share it, so that
 * together they stay within the node's budget rather than each spending a budget of its own.
 */
const schedulers = new Map<string, HostScheduler>();

export function schedulerFor(node: NodeConfig): HostScheduler {
  const key = `${node.url}\n${node.apiKey ?? ''}\n${node.limits.perMinute}`;
  let scheduler = schedulers.get(key);
  if (!scheduler) schedulers.set(key, (scheduler = new HostScheduler(node.limits)));
  return scheduler;
}
