import { describe, expect, it } from 'vitest';
import { trayChanges } from '../../src/domain/alerts/tray-view.ts';
import { tell } from '../../src/domain/alerts/tray-tell.ts';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { isStale } from '../../src/domain/relay/relay-inbox.ts';
import { decodePushPayload, decodeRelayAlert, type RelayAlert } from '../../src/domain/relay/relay-message.ts';
import { itemTag } from '../../src/domain/text/notification-content.ts';
import { pushPayload } from '../../src/relay/push/payload.ts';

// A transaction back in the mempool after a re-org reaches a phone by push, often alone: the relay tells a batch's
// latest state of an alert only, its outbox supersedes a queued state, and the push service keeps the last one per
// topic. It must still be shown there, as the revert it follows (issue 33).

const PRINCIPAL = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
const TX = `0x${'ab'.repeat(32)}`;
const ID = `testnet:${PRINCIPAL}:${TX}`;
const back: RelayAlert = {
  cursor: '18',
  id: ID,
  network: 'testnet',
  principal: PRINCIPAL,
  txId: TX,
  phase: 'pending',
  title: 'Reverted — back in the mempool: Receiving 5.00 STX',
  body: 'ST1PQ…PGZGM',
  path: `/address/${PRINCIPAL}#tx-${TX}`,
  at: 1_700_000_000_000,
  afterRevert: true,
};
const entry = (deliveries: InboxEntry['deliveries'], phase: InboxEntry['phase'] = 'confirmed'): InboxEntry => ({
  id: ID,
  network: 'testnet',
  principal: PRINCIPAL,
  txId: TX,
  phase,
  title: 'Received 5.00 STX',
  body: 'ST1PQ…PGZGM',
  path: back.path,
  firstAt: 0,
  at: 0,
  read: false,
  deliveries,
  undelivered: false,
});
const shown = (...phases: InboxEntry['phase'][]) =>
  phases.map((phase, at) => ({ phase, via: 'notification' as const, at }));

describe('a relayed transaction back in the mempool after a revert', () => {
  it('is news over a mined entry the revert never reached; a late pending without the mark is not', () => {
    expect(isStale(entry(shown('pending', 'confirmed')), back)).toBe(false);
    expect(isStale(entry(shown('pending', 'confirmed')), { ...back, afterRevert: undefined as never })).toBe(true);
    // Mined again on the new fork, after the revert and the return: a late one tells nothing.
    expect(isStale(entry(shown('pending', 'confirmed', 'reverted', 'pending', 'confirmed')), back)).toBe(true);
    expect(isStale(entry(shown('pending', 'confirmed', 'reverted'), 'reverted'), back)).toBe(false);
  });

  it('keeps its mark outside the facts, on a pending state only, in both kinds of push', () => {
    expect(decodeRelayAlert(back)).toMatchObject({ ok: true, value: { afterRevert: true } });
    const mined = decodeRelayAlert({ ...back, phase: 'confirmed' });
    expect(mined.ok && 'afterRevert' in mined.value).toBe(false);
    for (const origin of [null, 'https://watch.example']) {
      const decoded = decodePushPayload(JSON.parse(pushPayload(back, origin)));
      expect(decoded).toMatchObject({ ok: true, value: [{ phase: 'pending', afterRevert: true }] });
    }
  });

  it('recovered after a tab closed, changes the shown revert’s words without a second sound', () => {
    const stored: InboxEntry = {
      ...entry(shown('pending', 'confirmed', 'reverted'), 'pending'),
      title: back.title,
      undelivered: true,
      facts: { subject: TX, activity: null, amount: null, recalled: false, afterRevert: true as const },
      tray: { tag: itemTag(ID) },
    };
    const told = (entry: InboxEntry) =>
      tell(new Map([[ID, entry]]), [ID], [], { toast: false, granted: true }, () => null).show;
    // The revert was shown (closed since, or still on screen): its words change, without a second sound.
    expect(told(stored).map((content) => content.renotify)).toEqual([false]);
    // The revert never reached the user (told in one batch with the return): this is its telling, and it rings.
    expect(told({ ...stored, deliveries: shown('pending', 'confirmed') }).map((content) => content.renotify)).toEqual([
      true,
    ]);
  });
});

describe('the tray', () => {
  const single = (phase: 'pending' | 'confirmed', principal = PRINCIPAL, tag = `tx:testnet:${TX}`) => ({
    title: `${phase} words`,
    body: '',
    tag,
    renotify: true,
    data: {
      ids: [`testnet:${principal}:${TX}`],
      path: '/inbox',
      summary: null,
      phase,
      states: [`testnet:${TX}|${phase}`],
    },
  });

  it('rings only when it gains a transaction or a state it did not show a moment before', () => {
    const ring = (screen: ReturnType<typeof single>[], next: ReturnType<typeof single>) =>
      trayChanges(screen, [next]).show.map((content) => content.renotify);
    expect(ring([], single('pending'))).toEqual([true]);
    expect(ring([single('pending')], single('confirmed'))).toEqual([true]);
    // The same state shown again in other words (a second source, a second side of it): nothing new to hear.
    expect(ring([single('pending')], { ...single('pending'), title: 'other words' })).toEqual([false]);
    const otherSide = single('pending', 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG', 'tx:other');
    expect(ring([single('pending')], otherSide)).toEqual([false]);
    // The same words, alerts and states: nothing to show at all.
    expect(ring([single('pending')], single('pending'))).toEqual([]);
  });
});
