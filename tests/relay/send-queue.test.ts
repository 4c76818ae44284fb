import { describe, expect, it } from 'vitest';
import { SendQueue, type QueuedPush } from '../../src/relay/push/queue.ts';
import { sendKey, type QueuedSend, type Urgency } from '../../src/relay/storage/deliveries.ts';
import type { AlertPhase } from '../../src/domain/alerts/alert-ledger.ts';

const TX = `0x${'ab'.repeat(32)}`;
const OTHER_TX = `0x${'cd'.repeat(32)}`;
let cursor = 0;

/** A stored state of `principal`'s alert of a transaction, for a device. */
function state(
  deviceId: string,
  principal: string,
  phase: AlertPhase,
  urgency: Urgency = 'normal',
  txId = TX,
): QueuedSend {
  cursor += 1;
  return {
    deviceId,
    cursor,
    tries: 0,
    urgency,
    notBefore: 0,
    alert: {
      cursor: String(cursor),
      id: `testnet:${principal}:${txId}`,
      network: 'testnet',
      principal,
      txId,
      phase,
      title: '',
      body: '',
      path: '/',
      at: 0,
    },
  };
}

const told = (push: QueuedPush | undefined) =>
  push?.map((send) => `${send.deviceId} ${send.alert.principal} ${send.alert.phase}`);
const nobodyGone = () => false;

describe('the send queue takes a device’s sides of one transaction in one state as one push', () => {
  const queue = (fits?: (push: QueuedPush) => boolean) =>
    new SendQueue(
      () => 0,
      () => undefined,
      fits,
    );

  it('whatever lane each side waits in; another device, transaction or state is a push of its own', () => {
    const sends = queue();
    sends.add([
      state('d1', 'bob', 'confirmed'),
      state('d2', 'carol', 'confirmed'),
      state('d1', 'carol', 'confirmed', 'high'),
      state('d1', 'carol', 'pending', 'normal', OTHER_TX),
      state('d1', 'dave', 'confirmed', 'normal', OTHER_TX),
    ]);
    expect(told(sends.next(nobodyGone))).toEqual(['d1 carol confirmed', 'd1 bob confirmed']);
    expect(told(sends.next(nobodyGone))).toEqual(['d2 carol confirmed']);
    expect(told(sends.next(nobodyGone))).toEqual(['d1 carol pending']);
    expect(told(sends.next(nobodyGone))).toEqual(['d1 dave confirmed']);
    expect(sends.next(nobodyGone)).toBe(undefined);
  });

  it('a side taken along is in flight, not waiting: listed nowhere, dropped from its lane without leaving twice', () => {
    const sends = queue();
    const [bob, carol] = [state('d1', 'bob', 'pending'), state('d1', 'carol', 'pending')];
    sends.add([bob, carol]);
    const push = sends.next(nobodyGone)!;
    expect(told(push)).toEqual(['d1 bob pending', 'd1 carol pending']);
    expect(sends.waitingKeys()).toEqual(new Set());
    sends.drop(() => true);
    expect(sends.next(nobodyGone)).toBe(undefined);
    // Their alerts' next states wait for both answers, then leave together.
    const [bobNext, carolNext] = [state('d1', 'bob', 'confirmed'), state('d1', 'carol', 'confirmed')];
    sends.add([bobNext, carolNext]);
    expect(sends.next(nobodyGone)).toBe(undefined);
    expect(sends.waitingKeys()).toEqual(new Set([sendKey(bobNext), sendKey(carolNext)]));
    for (const send of push) {
      sends.answered(send);
      sends.release(send);
    }
    expect(told(sends.next(nobodyGone))).toEqual(['d1 bob confirmed', 'd1 carol confirmed']);
  });

  it('a side whose alert has a state in flight is not waited for: the other leaves alone (two pushes)', () => {
    const sends = queue();
    const bobPending = state('d1', 'bob', 'pending');
    sends.add([bobPending]);
    expect(told(sends.next(nobodyGone))).toEqual(['d1 bob pending']);
    sends.add([state('d1', 'bob', 'confirmed'), state('d1', 'carol', 'confirmed')]);
    expect(told(sends.next(nobodyGone))).toEqual(['d1 carol confirmed']);
    sends.answered(bobPending);
    sends.release(bobPending);
    expect(told(sends.next(nobodyGone))).toEqual(['d1 bob confirmed']);
  });

  it('as many sides as fit one push; the rest leave in the next', () => {
    const sends = queue((push) => push.length <= 2);
    sends.add(['bob', 'carol', 'dave'].map((principal) => state('d1', principal, 'confirmed')));
    expect(told(sends.next(nobodyGone))).toEqual(['d1 bob confirmed', 'd1 carol confirmed']);
    expect(told(sends.next(nobodyGone))).toEqual(['d1 dave confirmed']);
  });

  it('a push of several sides sent again (its fence closed, its device subscribed anew) leaves once more, once', () => {
    const sends = queue();
    const [bob, carol] = [state('d1', 'bob', 'pending'), state('d1', 'carol', 'pending')];
    sends.add([bob, carol]);
    const push = sends.next(nobodyGone)!;
    expect(told(push)).toEqual(['d1 bob pending', 'd1 carol pending']);
    // As the sender does: each side back in the queue, then answered once the push is over.
    for (const send of push) sends.again(send);
    for (const send of push) sends.answered(send);
    const again = sends.next(nobodyGone)!;
    expect(told(again)).toEqual(['d1 bob pending', 'd1 carol pending']);
    expect(sends.next(nobodyGone)).toBe(undefined);
    for (const send of again) {
      sends.answered(send);
      sends.release(send);
    }
    // Carol's state left once: nothing of it is left in a lane to leave a second time (or to find its alert gone).
    expect(sends.next(nobodyGone)).toBe(undefined);
    expect(sends.waitingKeys()).toEqual(new Set());
  });
});
