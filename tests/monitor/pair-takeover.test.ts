import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import type { Network } from '../../src/domain/network.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import type { NotificationContent } from '../../src/domain/text/notification-content.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { stxTransfer } from '../support/stx-transfer.ts';
import { memoryTray } from './truth/tray.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const STRANGER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const ADDED_AT = 1_700_000_000_000;
const labels = new Map([
  [ALICE, 'Alice'],
  [WALKER, 'Walker'],
]);

/** A 4.30 STX transfer from `from` to `to`, as `principal` sees it, pending or mined. */
const transfer = (principal: string, txId: string, mined: boolean, from = ALICE, to = WALKER): Activity =>
  stxTransfer(principal, txId, mined, from, to, ADDED_AT / 1000 + 60);

let stores = 0;

/** The system's tray of a browser profile (tag → notification), shared by its tabs. */
const trays = new Map<string, Map<string, NotificationContent>>();

/**
 * One tab of a browser profile watching Alice and Walker (`name`: the profile). `hangs`: the tab closes while it hands
 * its alerts over (the service worker got them and told them; the tab never hears back); `lost`: it closes before
 * the service worker got them (stored, never told).
 */
function tab(name: string, hangs = false, lost = false) {
  const closing = { hangs };
  const inbox = new Inbox(createStore(`pair-takeover-inbox-${name}`, 'alerts'));
  const screen = trays.get(name) ?? new Map<string, NotificationContent>();
  trays.set(name, screen);
  const tray = memoryTray(inbox, undefined, screen);
  const alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`pair-takeover-ledgers-${name}`, 'by-address')),
    inbox,
    settings: new AlertSettingsStore(createStore(`pair-takeover-settings-${name}-${++stores}`, 'records')),
    watched: (network: Network, principal: string) =>
      network === 'testnet' && labels.has(principal) ? { addedAt: ADDED_AT } : undefined,
    snapshot: () => undefined,
    text: { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined },
    deliver: async (told, whileOpen) => {
      if (lost) return new Promise(() => {});
      const via = await tray.deliver(told, whileOpen);
      return closing.hangs ? new Promise(() => {}) : via;
    },
    now: () => ADDED_AT + 120_000,
  });
  /** From now on the tab is closing: what it hands over, it never hears back of. */
  const close = () => (closing.hangs = true);
  return { inbox, alerter, shown: tray.shown, screen, close };
}

/** A tab started, with Alice's and Walker's first syncs (nothing on them yet) behind it. */
async function watchingBoth({ alerter }: ReturnType<typeof tab>): Promise<void> {
  await alerter.start([]);
  for (const principal of [ALICE, WALKER]) alerter.activities('testnet', principal, [], 'sync');
  await alerter.idle();
}

/** The tag of the one notification on screen that tells each of these alerts (undefined: none; 'many': several). */
function tagsOf(screen: ReadonlyMap<string, NotificationContent>, ...ids: string[]): (string | undefined)[] {
  return ids.map((id) => {
    const tags = [...screen.values()].filter((content) => content.data.ids.includes(id)).map(({ tag }) => tag);
    return tags.length > 1 ? 'many' : tags[0];
  });
}

const side = (principal: string, txId: string) => `testnet:${principal}:${txId}`;

describe('a transfer between two watched addresses, across a tab closing mid-hand-over', () => {
  it('is one notification under the pair’s tag, in every state, whichever tab tells it', async () => {
    const first = tab('hand-over', true);
    await watchingBoth(first);
    first.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa1', false)], 'live');
    await expect.poll(() => first.shown.length).toBe(1);
    expect(first.shown[0]!.data.pair).toBeDefined();

    // The next tab tells again what the closed tab never heard back of: the tray already shows it.
    const second = tab('hand-over');
    await second.alerter.start([]);
    await second.alerter.idle();
    expect(second.shown).toEqual([]);
    expect(second.inbox.get(side(ALICE, '0xa1'))).toMatchObject({ undelivered: false });

    // Walker's side and the confirmation of both join the same notification.
    second.alerter.activities('testnet', WALKER, [transfer(WALKER, '0xa1', false)], 'live');
    second.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa1', true)], 'live');
    second.alerter.activities('testnet', WALKER, [transfer(WALKER, '0xa1', true)], 'live');
    await second.alerter.idle();
    expect(tagsOf(second.screen, side(ALICE, '0xa1'), side(WALKER, '0xa1'))).toEqual([
      'tx:testnet:0xa1',
      'tx:testnet:0xa1',
    ]);
    expect(second.screen.get('tx:testnet:0xa1')?.title).toBe('4.30 STX · Alice → Walker');
    for (const content of [...first.shown, ...second.shown])
      if (content.data.ids.some((id) => id.endsWith(':0xa1'))) expect(content.tag).toBe('tx:testnet:0xa1');
  });

  it('keeps a side of a pair beside its other side when many alerts were left untold, as the closed tab did', async () => {
    const first = tab('many-left');
    await watchingBoth(first);
    first.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa2', false)], 'live');
    await first.alerter.idle();
    // Walker's side comes in a later batch, with four payments from a stranger: his summary, and the pair apart.
    first.close();
    const fromStranger = ['0xb1', '0xb2', '0xb3', '0xb4'].map((txId) => transfer(WALKER, txId, true, STRANGER, WALKER));
    first.alerter.activities('testnet', WALKER, [...fromStranger, transfer(WALKER, '0xa2', false)], 'live');
    await expect.poll(() => first.shown.length).toBe(3);
    const strangers = ['0xb1', '0xb2', '0xb3', '0xb4'].map((txId) => side(WALKER, txId));
    expect(tagsOf(first.screen, side(ALICE, '0xa2'), side(WALKER, '0xa2'), ...strangers)).toEqual([
      'tx:testnet:0xa2',
      'tx:testnet:0xa2',
      ...strangers.map(() => `summary:testnet:${WALKER}`),
    ]);

    const second = tab('many-left');
    await second.alerter.start([]);
    await second.alerter.idle();
    expect(second.shown).toEqual([]);
    expect(second.inbox.list().filter((entry) => entry.undelivered)).toEqual([]);
    expect(tagsOf(second.screen, side(WALKER, '0xa2'), ...strangers)).toEqual([
      'tx:testnet:0xa2',
      ...strangers.map(() => `summary:testnet:${WALKER}`),
    ]);
  });

  it('puts a side whose other side was told in the overall summary there too', async () => {
    const first = tab('into-summary');
    await watchingBoth(first);
    // Both told three payments from a stranger this minute: the transfer between them goes into the overall summary.
    for (const principal of [ALICE, WALKER]) {
      const paid = ['1', '2', '3'].map((n) =>
        transfer(principal, `0x${principal === ALICE ? 'c' : 'd'}${n}`, true, STRANGER, principal),
      );
      first.alerter.activities('testnet', principal, paid, 'live');
      await first.alerter.idle();
    }
    first.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa3', false)], 'live');
    await first.alerter.idle();
    expect(tagsOf(first.screen, side(ALICE, '0xa3'))).toEqual(['summary:all']);
    first.close();
    first.alerter.activities('testnet', WALKER, [transfer(WALKER, '0xa3', false)], 'live');
    await expect.poll(() => tagsOf(first.screen, side(WALKER, '0xa3'))).toEqual(['summary:all']);

    const second = tab('into-summary');
    await second.alerter.start([]);
    await second.alerter.idle();
    expect(second.shown).toEqual([]);
    expect(tagsOf(second.screen, side(ALICE, '0xa3'), side(WALKER, '0xa3'))).toEqual(['summary:all', 'summary:all']);
  });

  it('joins a side to its other side on screen, though the closed tab never heard it was shown', async () => {
    const first = tab('on-screen', true);
    await watchingBoth(first);
    first.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa4', false)], 'live');
    await expect.poll(() => first.shown.length).toBe(1);
    const paid = ['1', '2', '3', '4'].map((n) => transfer(WALKER, `0xe${n}`, true, STRANGER, WALKER));
    first.alerter.activities('testnet', WALKER, [...paid, transfer(WALKER, '0xa4', false)], 'live');
    await expect.poll(() => first.shown.length).toBe(3);

    // The system shows both sides as one; the tab closed before it heard so. The next tab tells nothing again.
    const second = tab('on-screen');
    await second.alerter.start([]);
    await second.alerter.idle();
    expect(second.shown).toEqual([]);
    expect(tagsOf(second.screen, side(ALICE, '0xa4'), side(WALKER, '0xa4'))).toEqual([
      'tx:testnet:0xa4',
      'tx:testnet:0xa4',
    ]);
  });

  it('tells the sides a closed tab stored but never handed over, as one, once', async () => {
    const first = tab('never-handed', false, true);
    await watchingBoth(first);
    first.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa5', false)], 'live');
    first.alerter.activities('testnet', WALKER, [transfer(WALKER, '0xa5', false)], 'live');
    await expect.poll(() => first.inbox.list().filter((entry) => entry.txId === '0xa5').length).toBe(2);
    expect(first.screen.size).toBe(0);

    const second = tab('never-handed');
    await second.alerter.start([]);
    await second.alerter.idle();
    expect(second.shown.map((content) => [content.tag, content.title, content.renotify])).toEqual([
      ['tx:testnet:0xa5', '4.30 STX · Alice → Walker — pending', true],
    ]);
    expect(second.inbox.list().filter((entry) => entry.undelivered)).toEqual([]);
  });
});
