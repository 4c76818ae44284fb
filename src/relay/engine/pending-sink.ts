import { poxCall } from '../../domain/state/pox-call.ts';
import type { OrderedSink } from '../../monitor/ordered-sink.ts';
import type { ActivitySink, SnapshotPort } from '../../monitor/ports.ts';
import type { StakingKeeper } from '../../monitor/staking-keeper.ts';

/**
 * Where the pending keeper tells: the alerts, and a principal's first staking read when a PoX-5 call of its own
 * enters the mempool. A staking alert tells a change from what was read before it; read before the call is mined,
 * the stake it makes is told in the staking's words (read after, it is history, and the call tells it instead).
 */
export function pendingSink(
  told: OrderedSink,
  book: SnapshotPort,
  staking: StakingKeeper | null,
  /** The burn height of the newest block taken, null before the first. */
  burnHeight: () => number | null,
): ActivitySink {
  return {
    activities: (network, principal, activities, source) => {
      if (
        staking &&
        book.get(principal)?.staking === undefined &&
        activities.some((activity) => activity.status === 'pending' && poxCall(activity.contractCall)?.version === 5)
      ) {
        // Judged once read: a staking alert tells the call's effect, so its pending state goes to the inbox only.
        const read = staking.refresh(principal, burnHeight());
        told.after(async () => {
          await read;
          return (sink) => sink.activities(network, principal, activities, source);
        });
      } else told.activities(network, principal, activities, source);
    },
    baseline: (...args) => told.baseline(...args),
    reverted: (...args) => told.reverted(...args),
    balance: (...args) => told.balance(...args),
    staking: (...args) => told.staking(...args),
    forked: (...args) => told.forked(...args),
    wantsDetail: (...args) => told.wantsDetail(...args),
  };
}
