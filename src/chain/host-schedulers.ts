import type { NodeConfig } from './networks.ts';
import { HostScheduler, type StartsMemory } from './scheduler.ts';

/**
 * One request scheduler per node in the page: the live engine and a history download share it, so that together they
 * stay within the node's budget rather than each spending a budget of its own. A pace set later (Settings) retunes the
 * node's one scheduler: two schedulers for one node would each spend the whole budget.
 */
const schedulers = new Map<string, HostScheduler>();

export function schedulerFor(node: NodeConfig, memory: StartsMemory | null = null): HostScheduler {
  const key = `${node.url}\n${node.apiKey ?? ''}`;
  let scheduler = schedulers.get(key);
  if (!scheduler) schedulers.set(key, (scheduler = new HostScheduler(node.limits, undefined, memory)));
  else scheduler.retune(node.limits);
  return scheduler;
}
