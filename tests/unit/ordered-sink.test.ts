import { describe, expect, it } from 'vitest';
import type { Network } from '../../src/domain/network.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { OrderedSink } from '../../src/monitor/ordered-sink.ts';
import type { ActivitySink } from '../../src/monitor/ports.ts';

/** A sink that writes down what it is handed, and in which turn of the event loop. */
function recording() {
  const handed: string[][] = [];
  let turn: string[] | null = null;
  const sink = {
    activities: (_network: Network, principal: string) => {
      if (!turn) {
        const current: string[] = [];
        turn = current;
        handed.push(current);
        queueMicrotask(() => (turn = null));
      }
      turn.push(principal);
    },
    baseline: () => undefined,
    reverted: () => undefined,
    balance: () => undefined,
    forked: () => undefined,
    wantsDetail: () => false,
  } satisfies ActivitySink;
  return { sink, handed };
}

/** Names learned one principal at a time, each a macrotask apart (a look-up over the network). */
const slowly = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('OrderedSink', () => {
  const activities: Activity[] = [];

  it('gathering: what one event queues together is handed over together, in order, once the last of it is ready', async () => {
    const { sink, handed } = recording();
    const told = new OrderedSink(sink, () => undefined, slowly, true);
    // One mempool event's two parties, then a later event's.
    told.activities('testnet', 'bob', activities, 'live');
    told.activities('testnet', 'carol', activities, 'live');
    await Promise.resolve();
    told.activities('testnet', 'dave', activities, 'live');
    await told.idle();
    expect(handed).toEqual([['bob', 'carol'], ['dave']]);
  });

  it('not gathering (the page): each is handed over as soon as it is ready, in order', async () => {
    const { sink, handed } = recording();
    const told = new OrderedSink(sink, () => undefined, slowly);
    told.activities('testnet', 'bob', activities, 'live');
    told.activities('testnet', 'carol', activities, 'live');
    await told.idle();
    expect(handed).toEqual([['bob'], ['carol']]);
  });

  it('a task that fails is told, and the rest of its turn is still handed over', async () => {
    const { sink, handed } = recording();
    const problems: string[] = [];
    const told = new OrderedSink(sink, (problem) => problems.push(problem), slowly, true);
    told.activities('testnet', 'bob', activities, 'live');
    told.after(() => Promise.reject(new Error('the node went away')));
    told.activities('testnet', 'carol', activities, 'live');
    await told.idle();
    expect(handed).toEqual([['bob', 'carol']]);
    expect(problems).toEqual(['Could not pass on what a node said: the node went away']);
  });

  it('gathering: idle asked while a turn is still being queued waits for that whole turn to be handed over', async () => {
    const { sink, handed } = recording();
    const told = new OrderedSink(sink, () => undefined, slowly, true);
    told.activities('testnet', 'bob', activities, 'live');
    // Asked between two tasks of one turn (a caller woken while the block's principals are still queued): bob is
    // handed over only together with carol, so bob's own task finishing is not "everything queued so far handed".
    const idle = told.idle();
    told.activities('testnet', 'carol', activities, 'live');
    await idle;
    expect(handed).toEqual([['bob', 'carol']]);
  });
});
