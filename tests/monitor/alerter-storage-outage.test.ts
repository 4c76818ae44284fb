import { createStore } from 'idb-keyval';
import { afterEach, describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { memoryTray } from './truth/tray.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const ADDED_AT = 1_700_000_000_000;

const received = (txId: string, blockHeight: number): Activity => ({
  txId,
  status: 'success',
  kind: 'token_transfer',
  counterparty: OTHER,
  stxNet: 1_250_000_000n,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight,
  time: ADDED_AT / 1000 + 60,
});

/**
 * IndexedDB refusing writes as a full disk does: `put` throws QuotaExceededError (the browser test raises it the
 * same way, tests/e2e/alerts-storage-outage.spec.ts). Only the inbox's and the ledgers' databases here. Each refused
 * write is noted (its database and key), so that a test can see what was tried and in which order.
 */
const put = IDBObjectStore.prototype.put;
interface Refused {
  readonly database: string;
  readonly key: IDBValidKey | undefined;
}
function refuseWrites(databases: readonly string[]): { allow: () => void; refused: readonly Refused[] } {
  const refused: Refused[] = [];
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    const database = this.transaction.db.name;
    if (databases.includes(database)) {
      refused.push({ database, key: args[1] });
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    }
    return put.apply(this, args);
  };
  return { allow: () => (IDBObjectStore.prototype.put = put), refused };
}
afterEach(() => {
  IDBObjectStore.prototype.put = put;
});

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await check()); tries++) {
    if (tries > 400) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function tab(name: string) {
  const inbox = new Inbox(createStore(`inbox-${name}`, 'alerts'));
  const ledgers = new AlertLedgerStore(createStore(`ledgers-${name}`, 'by-address'));
  const tray = memoryTray(inbox);
  const problems: string[] = [];
  const alerter = new Alerter({
    ledgers,
    inbox,
    settings: new AlertSettingsStore(createStore(`settings-${name}`, 'records')),
    watched: (network, principal) => (network === 'testnet' && principal === ME ? { addedAt: ADDED_AT } : undefined),
    snapshot: () => undefined,
    text: { label: () => 'Treasury', nameOf: () => null, token: () => undefined },
    deliver: tray.deliver,
    now: () => ADDED_AT + 120_000,
    report: (problem) => problems.push(problem),
    retry: { firstMs: 5, maxMs: 40 },
  });
  return { inbox, ledgers, alerter, shown: tray.shown, problems };
}

const storedLedgerSeen = async (name: string) =>
  Object.keys(
    (await new AlertLedgerStore(createStore(`ledgers-${name}`, 'by-address')).load()).get(`testnet:${ME}`)?.seen ?? {},
  );

describe('the alerter while IndexedDB refuses writes', () => {
  it('marks nothing seen before its alert is stored, tries again, and shows every alert once when writes resume', async () => {
    const name = 'outage-burst';
    const { inbox, alerter, shown, problems } = tab(name);
    await alerter.start([]);
    alerter.baseline('testnet', ME, [], 5);
    await alerter.idle();

    const first = alertId('testnet', ME, '0x0a');
    const second = alertId('testnet', ME, '0x0b');
    const { allow, refused } = refuseWrites([`inbox-${name}`, `ledgers-${name}`]);
    const inboxWrites = () => refused.filter(({ database }) => database === `inbox-${name}`).map(({ key }) => key);
    alerter.activities('testnet', ME, [received('0x0a', 6)], 'live');
    await until('the refused write to be reported', () => problems.length > 0);
    // A second batch meanwhile waits behind the first: nothing judged ahead of what is not stored. Judged at once, its
    // own write would open its transaction before the first batch's next try does (IndexedDB runs them in that order),
    // so once the first batch's write has been refused again, the second's would have been refused before it.
    const triedBefore = inboxWrites().length;
    alerter.activities('testnet', ME, [received('0x0b', 7)], 'live');
    await until(
      'the first batch to be tried again with the second one waiting',
      () => inboxWrites().length > triedBefore,
    );
    expect(inboxWrites().filter((key) => key !== first)).toEqual([]);
    expect(problems.filter((problem) => problem.startsWith('Storing new alerts failed'))).toHaveLength(1);
    expect(inbox.list()).toEqual([]);
    expect(await storedLedgerSeen(name)).toEqual([]);
    expect(shown).toEqual([]);

    allow();
    await alerter.idle();
    const ids = [first, second];
    expect(
      inbox
        .list()
        .map((entry) => [entry.id, entry.phase, entry.undelivered])
        .sort(),
    ).toEqual(ids.map((id) => [id, 'confirmed', false]));
    expect(shown.flatMap((content) => content.data.ids).sort()).toEqual(ids);
    expect((await storedLedgerSeen(name)).sort()).toEqual(['0x0a', '0x0b']);
    expect(problems.some((problem) => /done after \d+ tries/.test(problem))).toBe(true);

    // A restart finds both stored and shown: neither is told again.
    const restarted = tab(name);
    await restarted.alerter.start([]);
    restarted.alerter.activities('testnet', ME, [received('0x0a', 6), received('0x0b', 7)], 'sync');
    await restarted.alerter.idle();
    expect(restarted.shown).toEqual([]);
  });

  it('a ledger write refused after its alerts are stored is tried again, not only reported', async () => {
    const name = 'outage-ledger';
    const { alerter, problems } = tab(name);
    await alerter.start([]);
    alerter.baseline('testnet', ME, [], 5);
    await alerter.idle();

    const { allow } = refuseWrites([`ledgers-${name}`]);
    alerter.activities('testnet', ME, [received('0x0c', 6)], 'live');
    await until('the refused ledger write', () => problems.length > 0);
    expect(await storedLedgerSeen(name)).toEqual([]);
    allow();
    await alerter.idle();
    expect(await storedLedgerSeen(name)).toEqual(['0x0c']);
  });
});
