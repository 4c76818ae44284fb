import { describe, expect, it } from 'vitest';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { withAlert, type DeliveryVia, type InboxEntry } from '../../src/domain/alerts/inbox.ts';
import type { NotificationContent } from '../../src/domain/text/notification-content.ts';
import type { InboxPort } from '../../src/monitor/ports.ts';
import { Deliveries } from '../../src/notify/deliveries.ts';

// A tab taking over asks the service worker which stored alerts its tray shows already (the page never reads the
// tray). The answer comes later: an alert whose state changed meanwhile is not taken as shown by it.

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

function deliveries(inbox: InboxPort, answer: Promise<ReadonlyMap<string, DeliveryVia>>) {
  const shown: NotificationContent[] = [];
  const asked: InboxEntry[][] = [];
  const subject = new Deliveries({
    inbox,
    deliver: (content) => {
      shown.push(content);
      return Promise.resolve('notification');
    },
    whileOpen: () => 'system',
    alreadyShown: (waiting) => {
      asked.push([...waiting]);
      return answer;
    },
    now: () => 0,
    stored: (task) => task(),
    failed: (error) => {
      throw error;
    },
  });
  return { subject, shown, asked };
}

describe('recovering alerts a closed tab stored, asked of the service worker', () => {
  it('records what the tray shows as shown, and shows the rest', async () => {
    const inbox = memoryInbox();
    store(inbox, 'pending', 'Receiving 1.00 STX — pending');
    const { subject, shown } = deliveries(inbox, Promise.resolve(new Map([[ID, 'notification' as const]])));
    await subject.recover();
    await subject.pending;
    expect(shown).toEqual([]);
    expect(inbox.get(ID)?.undelivered).toBe(false);
  });

  it('shows an alert whose state changed while the worker was answering, though it said the earlier one is shown', async () => {
    const inbox = memoryInbox();
    store(inbox, 'pending', 'Receiving 1.00 STX — pending');
    let answer = (_shown: ReadonlyMap<string, DeliveryVia>) => {};
    const later = new Promise<ReadonlyMap<string, DeliveryVia>>((resolve) => (answer = resolve));
    const { subject, shown, asked } = deliveries(inbox, later);
    const recovered = subject.recover();
    await Promise.resolve();
    expect(asked.map((entries) => entries.map((entry) => entry.phase))).toEqual([['pending']]);
    // Mined meanwhile (another batch stored it); the worker's answer is about the pending state it was asked of.
    store(inbox, 'confirmed', 'Received 1.00 STX');
    answer(new Map([[ID, 'notification']]));
    await recovered;
    await subject.pending;
    expect(shown.map((content) => content.title)).toEqual(['Received 1.00 STX']);
    expect(inbox.get(ID)?.deliveries.map((delivery) => delivery.phase)).toEqual(['confirmed']);
  });
});
