import type { Network } from '../domain/network.ts';
import type { Activity, StxBalance } from '../domain/state/snapshot.ts';
import type { ActivitySink, ReorgScope } from './ports.ts';
import type { StakingChange } from './staking-keeper.ts';

/** Tasks queued together, and what each resolved to hand over. */
interface Turn {
  readonly hands: ((sink: ActivitySink) => void)[];
  left: number;
  /** When gathering: resolves once nothing more can join this turn. */
  readonly closed?: Promise<void>;
}

/**
 * Hands what the monitor learns to its sink in the order it was learned, even when a transaction first waits for
 * its details (a contract call's movements): a re-org found meanwhile must not overtake the confirmation it
 * reverts, or the revert would be judged before the state it follows.
 */
export class OrderedSink implements ActivitySink {
  private last: Promise<void> = Promise.resolve();
  /** What is being queued in this turn of the event loop, when gathering. */
  private turn: Turn | null = null;

  constructor(
    private readonly sink: ActivitySink | undefined,
    private readonly report: (problem: string) => void = () => {},
    /** What to learn before transactions are handed over (the names of their parties). */
    private readonly prepare: (principal: string, activities: readonly Activity[]) => Promise<void> = async () => {},
    /**
     * Whether what is queued in one turn of the event loop (one block's principals, one mempool event's parties) is
     * handed over together, once the last of it is ready, rather than each as soon as it is: the relay's alerts then
     * judge a device's sides of one transaction in one batch, stored in one write and told in one push.
     */
    private readonly gather = false,
  ) {}

  /** Queues `task`, which resolves to what to hand the sink; later calls wait for it. */
  after(task: () => Promise<(sink: ActivitySink) => void>): void {
    const turn = this.gather ? this.currentTurn() : { hands: [], left: 0 };
    turn.left += 1;
    this.last = this.last.then(async () => {
      try {
        turn.hands.push(await task());
      } catch (error) {
        this.failed(error);
      }
      if (--turn.left > 0) return;
      for (const hand of turn.hands.splice(0))
        try {
          if (this.sink) hand(this.sink);
        } catch (error) {
          this.failed(error);
        }
    });
  }

  private currentTurn(): Turn {
    if (this.turn) return this.turn;
    let close = (): void => {};
    const turn: Turn = { hands: [], left: 0, closed: new Promise((resolve) => (close = resolve)) };
    this.turn = turn;
    // Closed once this turn's synchronous work is done: nothing queued later joins it.
    queueMicrotask(() => {
      if (this.turn === turn) this.turn = null;
      close();
    });
    return turn;
  }

  private failed(error: unknown): void {
    this.report(`Could not pass on what a node said: ${error instanceof Error ? error.message : String(error)}`);
  }

  /** Resolves once everything queued so far was handed over. */
  idle(): Promise<void> {
    // A turn still open hands its first tasks over only with the ones that may still join it: the tail of the queue
    // now could resolve with them held back, so the turn is waited out first.
    const closed = this.turn?.closed;
    return closed ? closed.then(() => this.last) : this.last;
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
