import type { Network } from '../domain/network.ts';
import type { Activity, StxBalance } from '../domain/state/snapshot.ts';
import type { ActivitySink, ReorgScope } from './ports.ts';
import type { StakingChange } from './staking-keeper.ts';

/**
 * Hands what the monitor learns to its sink in the order it was learned, even when a transaction first waits for
 * its details (a contract call's movements): a re-org found meanwhile must not overtake the confirmation it
 * reverts, or the revert would be judged before the state it follows.
 */
export class OrderedSink implements ActivitySink {
  private last: Promise<void> = Promise.resolve();

  constructor(
    private readonly sink: ActivitySink | undefined,
    private readonly report: (problem: string) => void = () => {},
    /** What to learn before transactions are handed over (the names of their parties). */
    private readonly prepare: (principal: string, activities: readonly Activity[]) => Promise<void> = async () => {},
  ) {}

  /** Queues `task`, which resolves to what to hand the sink; later calls wait for it. */
  after(task: () => Promise<(sink: ActivitySink) => void>): void {
    this.last = this.last.then(async () => {
      try {
        const hand = await task();
        if (this.sink) hand(this.sink);
      } catch (error) {
        this.report(`Could not pass on what a node said: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  /** Resolves once everything queued so far was handed over. */
  idle(): Promise<void> {
    return this.last;
  }

  activities(network: Network, principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void {
    this.after(async () => {
      await this.prepare(principal, activities);
      return (sink) => sink.activities(network, principal, activities, source);
    });
  }

  baseline(
    network: Network,
    principal: string,
    activities: readonly Activity[],
    height: number | null,
    pendingBefore?: number | null,
  ): void {
    this.after(async () => (sink) => sink.baseline(network, principal, activities, height, pendingBefore));
  }

  reverted(network: Network, principal: string, activities: readonly Activity[], scope?: ReorgScope): void {
    this.after(async () => (sink) => sink.reverted(network, principal, activities, scope));
  }

  balance(network: Network, principal: string, before: StxBalance | null, after: StxBalance): void {
    this.after(async () => (sink) => sink.balance(network, principal, before, after));
  }

  staking(network: Network, principal: string, change: StakingChange): void {
    this.after(async () => (sink) => sink.staking?.(network, principal, change));
  }

  forked(network: Network, principal: string, height: number): void {
    this.after(async () => (sink) => sink.forked(network, principal, height));
  }

  wantsDetail(network: Network, principal: string): boolean {
    return this.sink?.wantsDetail(network, principal) ?? false;
  }
}
