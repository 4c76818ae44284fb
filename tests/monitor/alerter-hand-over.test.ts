import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../mocks/devnet/random.ts';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import type { Deliver } from '../../src/notify/deliveries.ts';
import { memoryTray } from './truth/tray.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const ADDED_AT = 1_700_000_000_000;

const received = (index: number): Activity => ({
  txId: `0x${index.toString(16).padStart(4, '0')}`,
  status: 'success',
  kind: 'token_transfer',
  counterparty: OTHER,
  stxNet: BigInt(index) * 1_000_000n,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight: 10 + index,
  time: ADDED_AT / 1000 + index,
});

/**
 * The platform as a failing service worker makes it: a hand-over may be refused before anything is shown (the worker
 * gone), or shown with its answer lost (the worker stopped just after); at most `streak` in a row (a short outage).
 * The tray is told as the service worker tells it (memoryTray); `brought` counts, per alert, the notifications that
 * brought it to the screen where no notification showed it a moment before.
 */
function failingPlatform(inbox: Inbox, random: SeededRandom, failRate: number, streak = 4) {
  const tray = memoryTray(inbox);
  const brought = new Map<string, number>();
  let refused = 0;
  let inARow = 0;
  const deliver: Deliver = async (told) => {
    const roll = inARow >= streak ? 1 : random.next();
    inARow = roll < failRate ? inARow + 1 : 0;
    if (roll < failRate / 2) {
      refused++;
      throw new Error('The service worker did not answer within 10 s');
    }
    const before = new Set([...tray.screen.values()].flatMap((content) => content.data.ids));
    const count = tray.shown.length;
    const via = await tray.deliver(told, 'system');
    for (const content of tray.shown.slice(count))
      for (const id of content.data.ids) if (!before.has(id)) brought.set(id, (brought.get(id) ?? 0) + 1);
    if (roll < failRate) {
      refused++;
      throw new Error('The service worker did not answer within 10 s');
    }
    return via;
  };
  return { brought, deliver, refused: () => refused };
}

async function until(what: string, check: () => boolean): Promise<void> {
  for (let tries = 0; !check(); tries++) {
    if (tries > 1000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('alerts the service worker did not take', () => {
  for (let seed = 1; seed <= 12; seed++) {
    it(`are tried again until shown, each once and recorded (seed ${seed})`, async () => {
      const random = new SeededRandom(`hand-over/${seed}`);
      const name = `hand-over-${seed}`;
      const inbox = new Inbox(createStore(`inbox-${name}`, 'alerts'));
      const platform = failingPlatform(inbox, random, random.pick([0.3, 0.6, 0.9]));
      const problems: string[] = [];
      const alerter = new Alerter({
        ledgers: new AlertLedgerStore(createStore(`ledgers-${name}`, 'by-address')),
        inbox,
        settings: new AlertSettingsStore(createStore(`settings-${name}`, 'records')),
        watched: (network, principal) =>
          network === 'testnet' && principal === ME ? { addedAt: ADDED_AT } : undefined,
        snapshot: () => undefined,
        text: { label: () => 'Treasury', nameOf: () => null, token: () => undefined },
        deliver: platform.deliver,
        now: () => ADDED_AT + 120_000,
        report: (problem) => problems.push(problem),
        retry: { firstMs: 2, maxMs: 20 },
      });
      await alerter.start([]);
      alerter.baseline('testnet', ME, [], 5);
      await alerter.idle();

      let next = 1;
      for (let batch = random.int(2, 6); batch > 0; batch--) {
        const size = random.int(1, 3);
        alerter.activities(
          'testnet',
          ME,
          Array.from({ length: size }, () => received(next++)),
          'live',
        );
        if (random.chance(0.5)) await new Promise((resolve) => setTimeout(resolve, random.int(0, 20)));
      }
      const ids = Array.from({ length: next - 1 }, (_, index) => alertId('testnet', ME, received(index + 1).txId));
      await until(`every alert recorded as shown (seed ${seed})`, () =>
        ids.every((id) => inbox.get(id)?.undelivered === false),
      );
      await alerter.idle();

      const context = `seed ${seed}, ${platform.refused()} hand-overs refused`;
      const times = new Map(ids.map((id) => [id, platform.brought.get(id) ?? 0]));
      expect(
        [...times].filter(([, count]) => count !== 1),
        `${context}: shown other than once`,
      ).toEqual([]);
      for (const id of ids)
        expect(
          inbox.get(id)?.deliveries.map((delivery) => delivery.phase),
          `${context}: ${id}`,
        ).toEqual(['confirmed']);
      if (platform.refused() > 0) expect(problems.some((problem) => /did not answer/.test(problem))).toBe(true);
    });
  }

  it('are left to the inbox, unread and said so, when the service worker takes none in six tries', async () => {
    const name = 'hand-over-never';
    const inbox = new Inbox(createStore(`inbox-${name}`, 'alerts'));
    const problems: string[] = [];
    let tries = 0;
    const alerter = new Alerter({
      ledgers: new AlertLedgerStore(createStore(`ledgers-${name}`, 'by-address')),
      inbox,
      settings: new AlertSettingsStore(createStore(`settings-${name}`, 'records')),
      watched: (network, principal) => (network === 'testnet' && principal === ME ? { addedAt: ADDED_AT } : undefined),
      snapshot: () => undefined,
      text: { label: () => 'Treasury', nameOf: () => null, token: () => undefined },
      deliver: () => {
        tries++;
        return Promise.reject(new Error('The service worker could not show an alert: TypeError'));
      },
      now: () => ADDED_AT + 120_000,
      report: (problem) => problems.push(problem),
      retry: { firstMs: 2, maxMs: 20 },
    });
    await alerter.start([]);
    alerter.baseline('testnet', ME, [], 5);
    alerter.activities('testnet', ME, [received(1)], 'live');
    const id = alertId('testnet', ME, received(1).txId);
    await until('the alert to be left to the inbox', () => inbox.get(id)?.undelivered === false);
    expect(tries).toBe(6);
    expect(inbox.get(id)).toMatchObject({ read: false, deliveries: [{ phase: 'confirmed', via: 'inbox' }] });
    expect(problems.some((problem) => /took no alert in 6 tries/.test(problem))).toBe(true);
  });
});
