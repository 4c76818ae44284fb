import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import type { Network } from '../../src/domain/network.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import type { NotificationContent, OnScreen } from '../../src/domain/text/notification-content.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { shownOnScreen } from '../../src/domain/text/notification-recovery.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const STRANGER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const ADDED_AT = 1_700_000_000_000;
const labels = new Map([
  [ALICE, 'Alice'],
  [WALKER, 'Walker'],
]);

/** A 4.30 STX transfer from `from` to `to`, as `principal` sees it, pending or mined. */
function transfer(principal: string, txId: string, mined: boolean, from = ALICE, to = WALKER): Activity {
  return {
    txId,
    status: mined ? 'success' : 'pending',
    kind: 'token_transfer',
    counterparty: principal === from ? to : from,
    stxNet: principal === from ? -4_300_180n : 4_300_000n,
    fee: 180n,
    memo: null,
    contractCall: null,
    blockHeight: mined ? 12 : null,
    time: ADDED_AT / 1000 + 60,
    sender: from,
    movements: [
      { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: from, recipient: to, amount: 4_300_000n },
    ],
  };
}

let stores = 0;

/**
 * One tab of a browser profile watching Alice and Walker (`name`: the profile). `hangs`: the tab closes while it hands
 * its notifications over (the service worker got them; the tab never hears back).
 */
function tab(name: string, hangs = false, onScreen: OnScreen[] = []) {
  const closing = { hangs };
  const inbox = new Inbox(createStore(`pair-takeover-inbox-${name}`, 'alerts'));
  const handed: NotificationContent[] = [];
  const alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`pair-takeover-ledgers-${name}`, 'by-address')),
    inbox,
    settings: new AlertSettingsStore(createStore(`pair-takeover-settings-${name}-${++stores}`, 'records')),
    watched: (network: Network, principal: string) =>
      network === 'testnet' && labels.has(principal) ? { addedAt: ADDED_AT } : undefined,
    snapshot: () => undefined,
    text: { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined },
    deliver: (content) => {
      handed.push(content);
      return closing.hangs ? new Promise(() => {}) : Promise.resolve('notification');
    },
    // As the service worker answers (sw.ts): from what its tray shows.
    alreadyShown: (waiting) => Promise.resolve(shownOnScreen(waiting, onScreen)),
    now: () => ADDED_AT + 120_000,
  });
  /** From now on the tab is closing: what it hands over, it never hears back of. */
  const close = () => (closing.hangs = true);
  return { inbox, alerter, handed, close };
}

/** A tab started, with Alice's and Walker's first syncs (nothing on them yet) behind it. */
async function watchingBoth({ alerter }: ReturnType<typeof tab>): Promise<void> {
  await alerter.start([]);
  for (const principal of [ALICE, WALKER]) alerter.activities('testnet', principal, [], 'sync');
  await alerter.idle();
}

/** Every tag each alert was handed over under, across tabs: one notification per alert means one tag. */
function tagsPerAlert(...handed: NotificationContent[][]): Map<string, Set<string>> {
  const tags = new Map<string, Set<string>>();
  for (const content of handed.flat())
    for (const id of content.data.ids) tags.set(id, (tags.get(id) ?? new Set()).add(content.tag));
  return tags;
}

describe('a transfer between two watched addresses, across a tab closing mid-hand-over', () => {
  it('is shown again by the tab that takes over under the pair’s tag, as the closed tab handed it over', async () => {
    const first = tab('hand-over', true);
    await watchingBoth(first);
    first.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa1', false)], 'live');
    await expect.poll(() => first.handed.length).toBe(1);
    expect(first.handed[0]!.data.pair).toBeDefined();

    // The service worker may still show what the closed tab handed over: the next tab's copy must replace it.
    const second = tab('hand-over');
    await second.alerter.start([]);
    await second.alerter.idle();
    expect(second.handed.map((content) => content.tag)).toEqual([first.handed[0]!.tag]);
    expect(second.handed[0]!.data.pair?.sides).toEqual(first.handed[0]!.data.pair?.sides);

    // Walker's side and the confirmation of both join the same notification.
    second.alerter.activities('testnet', WALKER, [transfer(WALKER, '0xa1', false)], 'live');
    second.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa1', true)], 'live');
    second.alerter.activities('testnet', WALKER, [transfer(WALKER, '0xa1', true)], 'live');
    await second.alerter.idle();
    const tags = tagsPerAlert(first.handed, second.handed);
    expect([...tags.values()].map((set) => [...set])).toEqual([['tx:testnet:0xa1'], ['tx:testnet:0xa1']]);
  });

  it('keeps a side of a pair on its own when many alerts were left unshown, as the closed tab did', async () => {
    const first = tab('many-left');
    await watchingBoth(first);
    first.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa2', false)], 'live');
    await first.alerter.idle();
    // Walker's side comes in a later batch, with four payments from a stranger: his summary, and the pair apart.
    first.close();
    const fromStranger = ['0xb1', '0xb2', '0xb3', '0xb4'].map((txId) => transfer(WALKER, txId, true, STRANGER, WALKER));
    first.alerter.activities('testnet', WALKER, [...fromStranger, transfer(WALKER, '0xa2', false)], 'live');
    await expect.poll(() => first.handed.length).toBe(3);
    const walkerSide = 'testnet:' + WALKER + ':0xa2';
    const handedFirst = first.handed.filter((content) => content.data.ids.includes(walkerSide));
    expect(handedFirst.map((content) => [content.tag, content.data.ids.length])).toEqual([['tx:testnet:0xa2', 1]]);

    const second = tab('many-left');
    await second.alerter.start([]);
    await second.alerter.idle();
    const handedAgain = second.handed.filter((content) => content.data.ids.includes(walkerSide));
    expect(handedAgain.map((content) => [content.tag, content.data.ids.length])).toEqual([['tx:testnet:0xa2', 1]]);
    expect(second.handed.flatMap((content) => content.data.ids)).toHaveLength(5);
  });

  it('puts a side whose other side was told in the overall summary there too, as the closed tab did', async () => {
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
    expect(first.handed.at(-1)!.tag).toBe('summary:all');
    first.close();
    first.alerter.activities('testnet', WALKER, [transfer(WALKER, '0xa3', false)], 'live');
    await expect.poll(() => first.handed.length).toBe(8);
    const walkerSide = `testnet:${WALKER}:0xa3`;
    expect(first.handed.at(-1)!.data.ids).toEqual([walkerSide]);
    expect(first.handed.at(-1)!.tag).toBe('summary:all');

    const second = tab('into-summary');
    await second.alerter.start([]);
    await second.alerter.idle();
    expect(second.handed.map((content) => [content.tag, content.data.ids])).toEqual([['summary:all', [walkerSide]]]);
  });

  it('joins a side to its other side on screen, though the closed tab never heard it was shown', async () => {
    const first = tab('on-screen', true);
    await watchingBoth(first);
    first.alerter.activities('testnet', ALICE, [transfer(ALICE, '0xa4', false)], 'live');
    await expect.poll(() => first.handed.length).toBe(1);
    const paid = ['1', '2', '3', '4'].map((n) => transfer(WALKER, `0xe${n}`, true, STRANGER, WALKER));
    first.alerter.activities('testnet', WALKER, [...paid, transfer(WALKER, '0xa4', false)], 'live');
    await expect.poll(() => first.handed.length).toBe(3);

    // The system shows Alice's side; the tab closed before it heard so. Walker's side joins it, never a summary.
    const aliceSide = first.handed[0]!;
    const second = tab('on-screen', false, [{ title: aliceSide.title, data: aliceSide.data }]);
    await second.alerter.start([]);
    await second.alerter.idle();
    const walkerSide = `testnet:${WALKER}:0xa4`;
    const told = second.handed.filter((content) => content.data.ids.includes(walkerSide));
    expect(told.map((content) => [content.tag, content.data.ids.length])).toEqual([['tx:testnet:0xa4', 1]]);
  });
});
