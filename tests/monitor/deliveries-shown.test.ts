import { describe, expect, it } from 'vitest';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import type { DeliveryVia, InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { withAlert } from '../../src/domain/alerts/inbox-alert.ts';
import type { InboxPort } from '../../src/monitor/ports.ts';
import { Deliveries } from '../../src/notify/deliveries.ts';

// The page hands stored alerts to the service worker, which tells them and answers how. The answer comes later: a
// state stored meanwhile is not taken as told by it.

const ID = 'testnet:ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4:0x01';

const item = (phase: AlertItem['phase']): AlertItem => ({
  id: ID,
  network: 'testnet',
  principal: 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4',
  subject: '0x01',
  phase,
  activity: null,
  amount: null,
  at: 0,
  catchUp: false,
});

function memoryInbox(): InboxPort & { entries: Map<string, InboxEntry> } {
  const entries = new Map<string, InboxEntry>();
  return {
    entries,
    load: () => Promise.resolve(),
    get: (id) => entries.get(id),
    list: () => [...entries.values()],
    async change(changes) {
      const changed: InboxEntry[] = [];
      for (const [id, change] of changes) {
        const next = change(entries.get(id));
        if (next) entries.set(id, next);
        else entries.delete(id);
        if (next) changed.push(next);
      }
      return changed;
    },
  };
}

const store = (inbox: ReturnType<typeof memoryInbox>, phase: AlertItem['phase'], title: string) =>
  inbox.entries.set(ID, withAlert(inbox.entries.get(ID), item(phase), { title, body: 'Bob', path: '/' }));

/** Deliveries over a platform that answers each hand-over when the test says so. */
function deliveries(inbox: InboxPort) {
  const asked: { told: InboxEntry[]; answer: (via: ReadonlyMap<string, DeliveryVia>) => void }[] = [];
  const subject = new Deliveries({
    inbox,
    deliver: (told) =>
      new Promise((resolve) => {
        asked.push({ told: [...told], answer: resolve });
      }),
    whileOpen: () => 'system',
    now: () => 0,
    stored: (task) => task(),
    failed: (error) => {
      throw error;
    },
  });
  return { subject, asked };
}

describe('telling stored alerts through the service worker', () => {
  it('records how the worker told each state it was asked about', async () => {
    const inbox = memoryInbox();
    store(inbox, 'pending', 'Receiving 1.00 STX — pending');
    const { subject, asked } = deliveries(inbox);
    const recovered = subject.recover();
    expect(asked.map(({ told }) => told.map((entry) => entry.phase))).toEqual([['pending']]);
    asked[0]!.answer(new Map([[ID, 'summary']]));
    await recovered;
    expect(inbox.get(ID)).toMatchObject({ undelivered: false, deliveries: [{ phase: 'pending', via: 'summary' }] });
  });

  it('leaves a state stored while the worker told an earlier one waiting, and tells it next', async () => {
    const inbox = memoryInbox();
    store(inbox, 'pending', 'Receiving 1.00 STX — pending');
    const { subject, asked } = deliveries(inbox);
    const told = subject.tell(new Map([[ID, 'pending' as const]]));
    // Mined meanwhile (another batch stored it); the worker's answer is about the pending state it was asked of.
    store(inbox, 'confirmed', 'Received 1.00 STX');
    asked[0]!.answer(new Map([[ID, 'notification']]));
    await told;
    expect(inbox.get(ID)).toMatchObject({ undelivered: true, deliveries: [{ phase: 'pending' }] });
    const recovered = subject.recover();
    expect(asked[1]!.told.map((entry) => entry.phase)).toEqual(['confirmed']);
    asked[1]!.answer(new Map([[ID, 'notification']]));
    await recovered;
    expect(inbox.get(ID)?.deliveries.map((delivery) => delivery.phase)).toEqual(['pending', 'confirmed']);
    expect(inbox.get(ID)?.undelivered).toBe(false);
  });
});
