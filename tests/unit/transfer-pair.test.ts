import { describe, expect, it } from 'vitest';
import { alertId, emptyPlanState, placeBatch, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { type TextContext } from '../../src/domain/text/alert-text.ts';
import {
  itemTag,
  OVERALL_TAG,
  summaryTag,
  type NotificationContent,
} from '../../src/domain/text/notification-content.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { addToBurst, viewBurst } from '../../src/domain/alerts/toast-view.ts';
import { decodeWithTransfers } from '../../src/chain/decode-activity.ts';
import { TrayModel, toldAlone } from '../support/told.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const STRANGER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const labels = new Map([
  [ALICE, 'Alice'],
  [WALKER, 'Walker'],
]);
const text: TextContext = { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined };

/** One 4.30 STX transfer from Alice to `to`, as `principal` sees it. */
const side = (principal: string, phase: AlertItem['phase'] = 'pending', to = WALKER, tx = '0xaa'): AlertItem => {
  const activity: Activity = {
    txId: tx,
    status: phase === 'pending' ? 'pending' : 'success',
    kind: 'token_transfer',
    counterparty: principal === ALICE ? to : ALICE,
    stxNet: principal === ALICE ? -4_300_180n : 4_300_000n,
    fee: 180n,
    memo: 'rent',
    contractCall: null,
    blockHeight: phase === 'pending' ? null : 12,
    time: 1_700_000_000,
    sender: ALICE,
    movements: [
      { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ALICE, recipient: to, amount: 4_300_000n },
    ],
  };
  const id = alertId('testnet', principal, tx);
  return { id, network: 'testnet', principal, subject: tx, phase, activity, amount: null, at: 0, catchUp: false };
};
const told = (item: AlertItem) => toldAlone(item, text);

/** Alerts told one batch each on one tray, as the alerter and the service worker tell them. */
function tray(...items: AlertItem[]): Map<string, NotificationContent> {
  const model = new TrayModel(text, { watched: (_, principal) => principal !== STRANGER });
  items.forEach((item, index) => model.batch([item], index * 1_000));
  return model.screen;
}

describe('a transfer between two watched addresses', () => {
  it('is one notification whichever side comes first, carrying both alerts, the second side silent', () => {
    for (const order of [
      [side(ALICE), side(WALKER)],
      [side(WALKER), side(ALICE)],
    ]) {
      const screen = tray(...order);
      expect(screen.size).toBe(1);
      const [pair] = screen.values();
      expect(pair!.title).toBe('4.30 STX · Alice → Walker — pending');
      expect(pair!.body).toBe('“rent”\nFee 0.00018 STX, paid by Alice');
      expect([...pair!.data.ids].sort()).toEqual([side(ALICE).id, side(WALKER).id].sort());
      expect(pair!.renotify).toBe(false);
    }
  });

  it('is one notification when the second side comes in a later batch: it joins the first side', () => {
    const watched = () => true;
    const first = placeBatch([side(ALICE)], emptyPlanState(), 1_000, () => null, undefined, watched);
    expect(first.placed).toEqual(new Map([[side(ALICE).id, { tag: itemTag(side(ALICE).id) }]]));
    // Walker's side comes next, though Walker was told three transactions of his own this minute meanwhile.
    const busy = [1, 2, 3].map((n) => side(WALKER, 'confirmed', STRANGER, `0x0${n}`));
    const state = placeBatch(busy, first.state, 1_500, () => null).state;
    const shown = (id: string) => (id === side(ALICE).id ? 'single' : null);
    const second = placeBatch([side(WALKER)], state, 2_000, shown, undefined, watched);
    expect(second.placed).toEqual(new Map([[side(WALKER).id, { tag: itemTag(side(WALKER).id) }]]));
    const model = new TrayModel(text, { watched });
    model.batch([side(ALICE)], 1_000);
    model.batch(busy, 1_500);
    model.batch([side(WALKER)], 2_000);
    const pairs = [...model.screen.values()].filter((content) => content.data.ids.includes(side(ALICE).id));
    expect(pairs.map((content) => content.title)).toEqual(['4.30 STX · Alice → Walker — pending']);
  });

  it('is one notification when both addresses are busy and their sides come in two batches', () => {
    // The walkthrough's case: each side folded into its own address's summary, two notifications for one transfer.
    const busy = (principal: string, from: number) =>
      [0, 1, 2].map((n) => side(principal, 'confirmed', principal === ALICE ? STRANGER : WALKER, `0x${from + n}`));
    const watched = () => true;
    let state = placeBatch([...busy(ALICE, 10), ...busy(WALKER, 20)], emptyPlanState(), 0, () => null).state;
    const first = placeBatch([side(ALICE)], state, 1_000, () => null, undefined, watched);
    state = first.state;
    // Told in the overall summary, the first side draws the second one there.
    const shown = (id: string) => (id === side(ALICE).id ? 'summary' : null);
    expect(placeBatch([side(WALKER)], state, 2_000, shown, undefined, watched).placed).toEqual(
      new Map([[side(WALKER).id, { tag: OVERALL_TAG }]]),
    );
    const model = new TrayModel(text, { watched });
    model.batch([...busy(ALICE, 10), ...busy(WALKER, 20)], 0);
    model.batch([side(ALICE)], 1_000);
    model.batch([side(WALKER)], 2_000);
    const sides = [...model.screen.values()].filter((content) => content.data.ids.includes(side(WALKER).id));
    expect(sides.map((content) => [content.tag, content.data.ids.includes(side(ALICE).id)])).toEqual([
      ['summary:all', true],
    ]);
    // Without the other address watched, a busy address's side folds into its own summary as ever.
    expect(placeBatch([side(WALKER)], state, 2_000, () => null).placed).toEqual(
      new Map([[side(WALKER).id, { tag: summaryTag('testnet', WALKER) }]]),
    );
  });

  it('folds into a batch’s overall summary with the other alerts when the batch holds too many', () => {
    // Four other addresses, one alert each: with the pair, more than a batch tells one by one.
    const others = [1, 2, 3, 4].map((n) => {
      const principal = `ST${n}OTHER`;
      const item = side(WALKER, 'confirmed', STRANGER, `0x4${n}`);
      // Each sends to a stranger: a transaction of its own, with no other watched party.
      const activity = { ...item.activity!, sender: principal, counterparty: STRANGER, movements: null };
      return { ...item, principal, activity, id: alertId('testnet', principal, `0x4${n}`) };
    });
    const watched = (_: string, principal: string) => principal !== STRANGER;
    const batch = [...others, side(ALICE), side(WALKER)];
    const { placed } = placeBatch(batch, emptyPlanState(), 0, () => null, undefined, watched);
    expect(placed).toEqual(new Map(batch.map(({ id }) => [id, { tag: OVERALL_TAG }])));
  });

  it('is told as one when mined too, and when reverted', () => {
    const screen = tray(side(ALICE), side(WALKER), side(ALICE, 'confirmed'));
    expect([...screen.values()].map((content) => content.title)).toEqual(['4.30 STX · Alice → Walker']);
    expect([...screen.values()][0]!.renotify).toBe(true);
    const after = tray(side(ALICE, 'confirmed'), side(WALKER, 'confirmed'), side(WALKER, 'reverted'));
    expect([...after.values()].map((content) => [content.title, content.body, content.data.ids.length])).toEqual([
      [
        'Reverted: 4.30 STX · Alice → Walker',
        '“rent”\nA chain re-organisation removed this transaction from its block.',
        2,
      ],
    ]);
    // Its sides' states stay their own: Alice's revert has not come yet.
    expect(Object.values([...after.values()][0]!.phases ?? {}).sort()).toEqual(['confirmed', 'reverted']);
  });

  it('is not paired with an address that is not watched', () => {
    expect(told(side(ALICE, 'pending', STRANGER)).data.pair).toBeUndefined();
  });

  it('counts as one alert in a toast burst', () => {
    const other = told(side(ALICE, 'pending', WALKER, '0xbb'));
    const burst = addToBurst(addToBurst(addToBurst(null, told(side(ALICE))), told(side(WALKER))), other);
    expect(viewBurst(burst)).toMatchObject({ title: other.title, more: 1 });
    expect(viewBurst(addToBurst(addToBurst(null, told(side(WALKER))), told(side(ALICE)))).title).toBe(
      '4.30 STX · Alice → Walker — pending',
    );
  });
});

const VAULT = `${WALKER}.demo-vault`;
labels.set(VAULT, 'Vault contract');

/** Alice's call of demo-vault.withdraw, paying her 84.00 STX once mined, as `principal` sees it. */
const withdrawal = (principal: string, phase: AlertItem['phase'] = 'pending', tx = '0xcc'): AlertItem => {
  const mined = phase === 'confirmed';
  const amount = mined ? 84_000_000n : 0n;
  const activity: Activity = {
    txId: tx,
    status: phase === 'pending' ? 'pending' : phase === 'failed' ? 'failed' : 'success',
    kind: 'contract_call',
    counterparty: principal === ALICE ? VAULT : ALICE,
    stxNet: principal === ALICE ? amount - 2_000n : -amount,
    fee: 2_000n,
    memo: null,
    contractCall: { contractId: VAULT, functionName: 'withdraw' },
    blockHeight: phase === 'pending' ? null : 12,
    time: 1_700_000_000,
    sender: ALICE,
    movements: mined
      ? [{ type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: VAULT, recipient: ALICE, amount }]
      : null,
  };
  const id = alertId('testnet', principal, tx);
  return { id, network: 'testnet', principal, subject: tx, phase, activity, amount: null, at: 0, catchUp: false };
};

describe('a contract call between two watched addresses (the caller and the contract)', () => {
  it('is one notification from its pending state on, however its sides and states come', () => {
    for (const order of [
      [withdrawal(ALICE), withdrawal(VAULT), withdrawal(ALICE, 'confirmed'), withdrawal(VAULT, 'confirmed')],
      [withdrawal(VAULT), withdrawal(ALICE, 'confirmed'), withdrawal(VAULT, 'confirmed')],
      [withdrawal(ALICE), withdrawal(VAULT, 'confirmed'), withdrawal(ALICE, 'confirmed')],
    ]) {
      const screens = order.map((_, index) => tray(...order.slice(0, index + 1)));
      for (const screen of screens) expect(screen.size).toBe(1);
      const last = [...screens.at(-1)!.values()][0]!;
      expect(last.title).toBe('84.00 STX · Vault contract → Alice');
      expect(last.body).toBe('via demo-vault.withdraw\nFee 0.002 STX, paid by Alice');
      expect(Object.values(last.phases ?? {})).toEqual(['confirmed', 'confirmed']);
    }
    const pending = [...tray(withdrawal(VAULT), withdrawal(ALICE)).values()];
    expect(pending.map((content) => content.title)).toEqual(['Alice → demo-vault.withdraw — pending']);
    expect(pending[0]!.data.path).toBe(`/address/${ALICE}#tx-0xcc`);
  });

  it('is told as one when it fails', () => {
    const screen = tray(withdrawal(ALICE), withdrawal(VAULT), withdrawal(VAULT, 'failed'));
    expect([...screen.values()].map((content) => [content.title, content.data.ids.length])).toEqual([
      ['Failed: Alice → demo-vault.withdraw', 2],
    ]);
    const failed = tray(withdrawal(ALICE, 'failed'), withdrawal(VAULT, 'failed'));
    expect([...failed.values()].map((content) => [content.title, content.data.ids.length])).toEqual([
      ['Failed: Alice → demo-vault.withdraw', 2],
    ]);
  });

  it('says "skipped", not "failed", when the miners skipped it (problematic_skipped)', () => {
    const skipped = (principal: string): AlertItem => {
      const item = side(principal, 'failed', WALKER, '0xab');
      const activity = { ...item.activity!, status: 'failed' as const, statusDetail: 'problematic_skipped' };
      return { ...item, activity: { ...activity, stxNet: principal === ALICE ? -180n : 0n, movements: [] } };
    };
    const screen = tray(skipped(ALICE), skipped(WALKER));
    expect([...screen.values()].map((content) => [content.title, content.data.ids.length])).toEqual([
      ['Skipped as problematic: Alice → Walker', 2],
    ]);
  });

  it('names a transfer the miners skipped, or that failed, by what it asked to move, as the node lists it', () => {
    // Each side as the address topic delivers it: a failed transfer moved nothing, only its sender's fee.
    const row = (principal: string, status: string): AlertItem => {
      const tx = {
        tx_id: `0x${'ab'.repeat(32)}`,
        tx_type: 'token_transfer',
        tx_status: status,
        sender_address: ALICE,
        sponsored: false,
        fee_rate: '180',
        nonce: 7,
        block_height: 12,
        tx_index: 3,
        block_time: 1_700_000_000,
        token_transfer: { recipient_address: WALKER, amount: '4300000', memo: '0x' },
      };
      const sent = principal === ALICE ? '180' : '0';
      const activity = decodeWithTransfers({ value: { tx, stx_sent: sent, stx_received: '0' }, path: '$' }, principal);
      return { ...side(principal, 'failed', WALKER, tx.tx_id), activity };
    };
    for (const [status, prefix] of [
      ['problematic_skipped', 'Skipped as problematic'],
      ['abort_by_response', 'Failed'],
    ]) {
      const screen = tray(row(ALICE, status!), row(WALKER, status!));
      expect([...screen.values()].map((content) => [content.title, content.data.ids.length])).toEqual([
        [`${prefix}: 4.30 STX · Alice → Walker`, 2],
      ]);
    }
  });

  it('is planned as one: the contract’s side joins the caller’s, in a later batch too', () => {
    const watched = () => true;
    const first = placeBatch([withdrawal(ALICE)], emptyPlanState(), 0, () => null, undefined, watched);
    const shown = (id: string) => (id === withdrawal(ALICE).id ? ('single' as const) : null);
    const second = placeBatch([withdrawal(VAULT)], first.state, 1_000, shown, undefined, watched);
    expect(second.placed).toEqual(new Map([[withdrawal(VAULT).id, { tag: itemTag(withdrawal(VAULT).id) }]]));
    expect(tray(withdrawal(ALICE), withdrawal(VAULT)).size).toBe(1);
  });

  it('is each address’s own when the contract is not watched', () => {
    const alone: TextContext = { ...text, label: (p) => (p === VAULT ? '' : (labels.get(p) ?? '')) };
    const content = toldAlone(withdrawal(ALICE), alone);
    expect([content.title, content.data.pair]).toEqual(['Calling demo-vault.withdraw — pending', undefined]);
  });
});

const DUSD = `${STRANGER}.demo-usd`;

/** Alice's 12.00 DUSD to Walker through demo-usd.transfer: its recipient is known from its movements, once mined. */
const tokenSent = (principal: string, phase: AlertItem['phase'] = 'confirmed', tx = '0xdd'): AlertItem => {
  const mined = phase === 'confirmed';
  const activity: Activity = {
    txId: tx,
    status: mined ? 'success' : 'pending',
    kind: 'contract_call',
    counterparty: principal === ALICE ? DUSD : ALICE,
    stxNet: principal === ALICE ? -2_000n : 0n,
    fee: 2_000n,
    memo: null,
    contractCall: { contractId: DUSD, functionName: 'transfer' },
    blockHeight: mined ? 12 : null,
    time: 1_700_000_000,
    sender: ALICE,
    movements: mined
      ? [
          {
            type: 'ft',
            assetIdentifier: `${DUSD}::dusd`,
            kind: 'transfer',
            sender: ALICE,
            recipient: WALKER,
            amount: 12n,
          },
        ]
      : null,
  };
  const id = alertId('testnet', principal, tx);
  return { id, network: 'testnet', principal, subject: tx, phase, activity, amount: null, at: 0, catchUp: false };
};

/** Batches planned one after the other and told on one tray, as the alerter and the service worker tell them. */
function planned(...batches: AlertItem[][]): { screen: Map<string, NotificationContent>; last: NotificationContent[] } {
  const model = new TrayModel(text, { watched: () => true });
  let last: NotificationContent[] = [];
  for (const [index, batch] of batches.entries()) last = model.batch(batch, index * 1_000);
  return { screen: model.screen, last };
}

describe('a transaction whose other side its sender learns once mined (a token sent to a watched address)', () => {
  // Alice told three of her own this minute: her pending token transfer, whose recipient she does not know yet, goes
  // into her summary.
  const busy = [1, 2, 3].map((n) => ({ ...side(ALICE, 'pending', STRANGER, `0x5${n}`) }));
  const carriers = (screen: Map<string, NotificationContent>, ...items: AlertItem[]) =>
    [...screen.values()].filter((content) => items.some((item) => content.data.ids.includes(item.id)));

  it('leaves the sender’s summary when both sides are told mined together: one notification', () => {
    const { screen } = planned(busy, [tokenSent(ALICE, 'pending')], [tokenSent(ALICE), tokenSent(WALKER)]);
    const [only, ...more] = carriers(screen, tokenSent(ALICE), tokenSent(WALKER));
    expect(more).toEqual([]);
    // Alice still busy: the two sides together in the overall summary, one transaction told in its pair's words, never
    // "2 new transactions".
    expect([only!.tag, only!.title, only!.body.split('\n')]).toEqual([
      'summary:all',
      '12 base units of dusd · Alice → Walker',
      ['via demo-usd.transfer', 'Fee 0.002 STX, paid by Alice'],
    ]);
    // Her summary told only that pending state: left with nothing, it is closed.
    expect(screen.has(`summary:testnet:${ALICE}`)).toBe(false);
  });

  it('gathers the sender’s mined side beside the recipient’s in the overall summary, without a sound', () => {
    const { screen, last } = planned(
      busy,
      [tokenSent(ALICE, 'pending')],
      [1, 2, 3].map((n) => side(WALKER, 'confirmed', WALKER, `0x6${n}`)),
      [tokenSent(WALKER)],
      [tokenSent(ALICE)],
    );
    expect(carriers(screen, tokenSent(ALICE), tokenSent(WALKER)).map((content) => content.tag)).toEqual([
      'summary:all',
    ]);
    expect(last.map((content) => content.renotify)).toEqual([false]);
  });
});
