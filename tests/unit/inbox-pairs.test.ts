import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { withDelivery, type InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { withAlert } from '../../src/domain/alerts/inbox-alert.ts';
import { minedAgainAfterReorg } from '../../src/domain/alerts/reorg-history.ts';
import { unreadRows } from '../../src/domain/alerts/inbox-pairs.ts';
import { inboxRowName, inboxRows } from '../../src/domain/alerts/inbox-rows.ts';
import { ALL_ALERTS, filterInbox, groupByAddress, unreadUnder } from '../../src/domain/alerts/inbox-view.ts';
import { withRelayAlert } from '../../src/domain/relay/relay-inbox.ts';
import type { RelayAlert } from '../../src/domain/relay/relay-message.ts';
import type { AlertFacts } from '../../src/domain/alerts/alert-facts.ts';
import { alertBody, alertTitle, type TextContext } from '../../src/domain/text/alert-text.ts';
import { toldAlone } from '../support/told.ts';
import { shortPrincipal } from '../../src/domain/text/activity-text.ts';
import type { Naming } from '../../src/domain/text/effect-text.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { pageTextContext } from '../../src/app/engine/page-text.ts';
import type { WatchEntry } from '../../src/domain/watch/watch-entry.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const CAROL = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const DAVE = 'ST2NEB84ASENDXKYGJPQW86YXQCEFEX2ZQPG87ND';
const NOW = Date.parse('2026-11-24T12:00:00Z');

const namingOf = (labels: ReadonlyMap<string, string>): Naming => ({
  token: () => undefined,
  party: (principal) => labels.get(principal) || shortPrincipal(principal),
});
const LABELS = new Map([
  [ALICE, 'Alice'],
  [WALKER, 'Walker'],
  [CAROL, 'Carol'],
]);
const naming = namingOf(LABELS);
const text: TextContext = { label: (p) => LABELS.get(p) ?? '', nameOf: () => null, token: () => undefined };

/** The activity of `amount` micro-STX sent from `from` to `to` in `tx`, as `principal` sees it. */
function transfer(principal: string, from: string, to: string, tx: string, amount: bigint, status: Activity['status']) {
  const mined = status !== 'pending' && status !== 'dropped';
  const activity: Activity = {
    txId: tx,
    status,
    kind: 'token_transfer',
    counterparty: principal === from ? to : from,
    stxNet: principal === from ? -(amount + 180n) : amount,
    fee: 180n,
    memo: 'rent',
    contractCall: null,
    blockHeight: mined ? 12 : null,
    time: 1_700_000_000,
    sender: from,
    movements: [{ type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: from, recipient: to, amount }],
  };
  return activity;
}

type Phase = AlertItem['phase'];
const STATUS: Record<string, Activity['status']> = { pending: 'pending', dropped: 'dropped', failed: 'failed' };

/** The inbox entry of `principal`'s side after the alert in `phase`, written as the alerter writes it. */
function side(
  principal: string,
  phase: Phase,
  at: number,
  { from = ALICE, to = WALKER, tx = '0xaa', amount = 4_300_000n, before = undefined as InboxEntry | undefined } = {},
): InboxEntry {
  const activity = transfer(principal, from, to, tx, amount, STATUS[phase] ?? 'success');
  const item: AlertItem = {
    id: alertId('testnet', principal, tx),
    network: 'testnet',
    principal,
    subject: tx,
    phase,
    activity,
    amount: null,
    at,
    catchUp: false,
  };
  return withAlert(before, item, {
    title: alertTitle(item, text),
    body: alertBody(item, text),
    path: `/address/${principal}#tx-${tx}`,
  });
}

const newestFirst = (entries: InboxEntry[]) => [...entries].sort((a, b) => b.at - a.at);

describe('a transfer between two watched addresses in the inbox', () => {
  it('is one row in the pair’s words, listed under the recipient, standing for both alerts', () => {
    const entries = [side(ALICE, 'pending', NOW), side(WALKER, 'pending', NOW)];
    const rows = inboxRows(entries, naming);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      title: '4.30 STX · Alice → Walker — pending',
      body: '“rent”\nFee 0.00018 STX, paid by Alice',
      principal: WALKER,
      principals: [ALICE, WALKER],
      path: `/address/${WALKER}#tx-0xaa`,
      read: false,
    });
    expect([...rows[0]!.ids].sort()).toEqual(entries.map((entry) => entry.id).sort());
    expect(unreadRows(entries)).toBe(1);
  });

  it('follows its states on that one row: mined, reverted, mined again, dropped', () => {
    const pending = [side(ALICE, 'pending', NOW), side(WALKER, 'pending', NOW)];
    const later = (phase: Phase, at: number, entries: InboxEntry[]) =>
      entries.map((entry) => side(entry.principal, phase, at, { before: entry }));
    const mined = later('confirmed', NOW + 1, pending);
    const reverted = later('reverted', NOW + 2, mined);
    const again = later('confirmed', NOW + 3, reverted);
    const dropped = later('dropped', NOW + 2, pending);
    const only = (entries: InboxEntry[]) => {
      const rows = inboxRows(newestFirst(entries), naming);
      expect(rows).toHaveLength(1);
      return [rows[0]!.title, rows[0]!.body, rows[0]!.read];
    };
    expect(only(mined)).toEqual(['4.30 STX · Alice → Walker', '“rent”\nFee 0.00018 STX, paid by Alice', false]);
    expect(only(reverted)).toEqual([
      'Reverted: 4.30 STX · Alice → Walker',
      '“rent”\nA chain re-organisation removed this transaction from its block.',
      false,
    ]);
    expect(only(again)[0]).toBe('4.30 STX · Alice → Walker');
    expect(only(dropped)[0]).toBe('Dropped: 4.30 STX · Alice → Walker');
    expect(only(dropped)[1]).toBe('“rent”\nIt left the mempool without being mined: nothing moved.');
    // One side told mined before the other: the row tells the newer state.
    expect(only([mined[0]!, pending[1]!])[0]).toBe('4.30 STX · Alice → Walker');
    // Read only once both alerts are read; a new state makes it unread again.
    const read = mined.map((entry) => ({ ...entry, read: true }));
    expect(only(read)[2]).toBe(true);
    expect(only([read[0]!, { ...read[1]!, read: false }])[2]).toBe(false);
  });

  it('uses the labels the user has now, else the address, and is paired with or without them', () => {
    const entries = [side(ALICE, 'confirmed', NOW), side(WALKER, 'confirmed', NOW)];
    const renamed = namingOf(new Map([[ALICE, 'Alice (cold)']]));
    expect(inboxRows(entries, renamed)[0]!.title).toBe(`4.30 STX · Alice (cold) → ${shortPrincipal(WALKER)}`);
  });

  it('is grouped under the recipient and opens her page, or the sender’s when the list is filtered by the sender', () => {
    const entries = newestFirst([
      side(ALICE, 'confirmed', NOW - 1000),
      side(WALKER, 'confirmed', NOW - 1000),
      side(CAROL, 'confirmed', NOW, { from: CAROL, to: DAVE, tx: '0xbb' }),
    ]);
    const grouped = groupByAddress(inboxRows(entries, naming), NOW, { timeZone: 'UTC' });
    expect(grouped[0]!.addresses.map((run) => [run.principal, run.entries.map((row) => row.title)])).toEqual([
      [CAROL, ['Sent 4.30 STX · fee 0.00018 STX']],
      [WALKER, ['4.30 STX · Alice → Walker']],
    ]);
    const ofAlice = { ...ALL_ALERTS, principal: ALICE };
    const filtered = filterInbox(inboxRows(entries, naming, ALICE), ofAlice);
    expect(filtered.map((row) => [row.principal, row.title, row.path])).toEqual([
      [ALICE, '4.30 STX · Alice → Walker', `/address/${ALICE}#tx-0xaa`],
    ]);
    const ofWalker = filterInbox(inboxRows(entries, naming, WALKER), { ...ofAlice, principal: WALKER });
    expect(ofWalker.map((row) => [row.principal, row.path])).toEqual([[WALKER, `/address/${WALKER}#tx-0xaa`]]);
    const unfiltered = inboxRows(entries, naming).find((row) => row.principals.length === 2);
    expect([unfiltered?.principal, unfiltered?.path]).toEqual([WALKER, `/address/${WALKER}#tx-0xaa`]);
    const oneRead = entries.map((entry) => (entry.principal === ALICE ? { ...entry, read: true } : entry));
    expect(filterInbox(inboxRows(oneRead, naming), { ...ALL_ALERTS, unreadOnly: true })).toHaveLength(2);
  });

  it('counts as unread under an address filter only the rows of that address, a pair under either side', () => {
    const entries = newestFirst([
      side(ALICE, 'confirmed', NOW - 1000),
      side(WALKER, 'confirmed', NOW - 1000),
      side(CAROL, 'confirmed', NOW, { from: CAROL, to: DAVE, tx: '0xbb' }),
      { ...side(CAROL, 'confirmed', NOW + 1, { from: DAVE, to: CAROL, tx: '0xcc' }), read: true },
    ]);
    const under = (principal: string) =>
      unreadUnder(inboxRows(entries, naming, principal), { ...ALL_ALERTS, principal }).map((row) => row.ids);
    expect(unreadUnder(inboxRows(entries, naming), ALL_ALERTS)).toHaveLength(2);
    expect(under(CAROL)).toEqual([[alertId('testnet', CAROL, '0xbb')]]);
    expect(under(ALICE)).toHaveLength(1);
    expect([...under(ALICE)[0]!].sort()).toEqual([ALICE, WALKER].map((p) => alertId('testnet', p, '0xaa')).sort());
    expect(under(DAVE)).toEqual([]);
  });

  it('pairs the entries a push stored (the relay’s facts), and leaves alone what is not a transfer between them', () => {
    // As the relay sends them: its own words, the facts as JSON.
    const pushed = [ALICE, WALKER].map((principal, index) => {
      const app = side(principal, 'confirmed', NOW);
      const alert: RelayAlert = {
        cursor: String(index),
        id: app.id,
        network: 'testnet',
        principal,
        txId: '0xaa',
        phase: 'confirmed',
        title: principal === ALICE ? 'Sent 4.30 STX' : 'Received 4.30 STX',
        body: shortPrincipal(principal),
        path: app.path,
        at: NOW,
        facts: JSON.parse(JSON.stringify(app.facts)) as AlertFacts,
      };
      return withRelayAlert(undefined, alert);
    });
    expect(inboxRows(pushed, naming).map((row) => row.title)).toEqual(['4.30 STX · Alice → Walker']);
    // Both received from Dave in one transaction: two alerts, not a transfer between them.
    const fromDave = [ALICE, WALKER].map((principal) =>
      side(principal, 'confirmed', NOW, { from: DAVE, to: principal }),
    );
    expect(inboxRows(fromDave, naming)).toHaveLength(2);
    // Entries stored before alerts kept their facts: as they were, one each.
    const bare = [side(ALICE, 'confirmed', NOW), side(WALKER, 'confirmed', NOW)].map(({ facts: _, ...entry }) => entry);
    expect(inboxRows(bare, naming)).toHaveLength(2);
  });

  it('one row per transaction, standing for its watched sides, whatever the traffic (generated)', () => {
    const people = [ALICE, WALKER, CAROL, DAVE];
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            from: fc.nat(3),
            hop: fc.integer({ min: 1, max: 3 }),
            amount: fc.bigInt(1n, 10n ** 12n),
            phase: fc.constantFrom<Phase>('pending', 'confirmed', 'reverted', 'dropped'),
          }),
          { maxLength: 12 },
        ),
        fc.subarray(people, { minLength: 1 }),
        (transfers, watched) => {
          const entries: InboxEntry[] = [];
          const expected = new Map<string, string[]>();
          transfers.forEach(({ from, hop, amount, phase }, index) => {
            const [sender, recipient] = [people[from]!, people[(from + hop) % 4]!];
            const tx = `0x${index.toString(16).padStart(4, '0')}`;
            const sides = [sender, recipient].filter((principal) => watched.includes(principal));
            if (sides.length === 0) return;
            expected.set(tx, sides.map((principal) => alertId('testnet', principal, tx)).sort());
            for (const principal of sides)
              entries.push(side(principal, phase, NOW + index, { from: sender, to: recipient, tx, amount }));
          });
          const rows = inboxRows(newestFirst(entries), naming);
          const told = new Map(rows.map((row) => [row.ids.map((id) => id.split(':')[2]!)[0]!, [...row.ids].sort()]));
          expect(rows).toHaveLength(expected.size);
          expect(told).toEqual(expected);
          expect(unreadRows(entries)).toBe(expected.size);
        },
      ),
      { seed: Number(process.env['PAIRS_SEED'] ?? Date.now() % 2 ** 31) },
    );
  });
});

describe('a transaction mined again after a re-org, in the inbox', () => {
  /** `entry` in `phase`, then shown (a toast, here): what the alerter and the tab record. */
  const toldAs = (entry: InboxEntry | undefined, principal: string, phase: Phase, at: number) =>
    withDelivery(side(principal, phase, at, { before: entry }), 'toast', at);
  const history = (principal: string, phases: readonly Phase[]) =>
    phases.reduce<InboxEntry | undefined>(
      (entry, phase, index) => toldAs(entry, principal, phase, NOW + index),
      undefined,
    )!;
  const marks = (entries: InboxEntry[]) => inboxRows(newestFirst(entries), naming).map((row) => row.minedAgain);

  it('keeps a mark of the revert once mined again, the pair’s row and a single one alike', () => {
    const phases: Phase[] = ['pending', 'confirmed', 'reverted', 'confirmed'];
    expect(marks([history(ALICE, phases), history(WALKER, phases)])).toEqual([true]);
    expect(marks([history(WALKER, phases)])).toEqual([true]);
    // Told only as back in the mempool (the revert and the return heard in one batch): the user read "Reverted".
    expect(marks([history(WALKER, ['pending', 'confirmed', 'pending', 'confirmed'])])).toEqual([true]);
    // Mined again as a failure (its contract refused it on the new fork): still a transaction that was taken back.
    expect(minedAgainAfterReorg('failed', [{ deliveries: [{ phase: 'confirmed' }, { phase: 'reverted' }] }])).toBe(
      true,
    );
    // Mined again but not shown yet: the entry is mined, its history told the revert.
    const waiting = side(WALKER, 'confirmed', NOW + 9, {
      before: history(WALKER, ['pending', 'confirmed', 'reverted']),
    });
    expect(marks([waiting])).toEqual([true]);
  });

  it('marks nothing that was not taken back, nor one still out of the chain', () => {
    expect(marks([history(WALKER, ['pending', 'confirmed'])])).toEqual([false]);
    expect(marks([history(WALKER, ['confirmed'])])).toEqual([false]);
    // Reverted and not mined again: its chip says so ("Reverted"), there is nothing "again" yet.
    expect(marks([history(WALKER, ['pending', 'confirmed', 'reverted'])])).toEqual([false]);
    expect(marks([history(WALKER, ['pending', 'confirmed', 'reverted', 'pending'])])).toEqual([false]);
    // Dropped, then broadcast again and mined: no block ever held it before, so no re-org.
    expect(marks([history(WALKER, ['pending', 'dropped', 'pending', 'confirmed'])])).toEqual([false]);
    // The pair: neither side told a revert.
    const phases: Phase[] = ['pending', 'confirmed'];
    expect(marks([history(ALICE, phases), history(WALKER, phases)])).toEqual([false]);
  });
});

describe('a row of the inbox in time order (issue 24: a phone’s notification list)', () => {
  it('names its address as the user knows it now, not as the stored words’ first line did', () => {
    // Carol paid Dave while the user called her "Carol"; she is "Carol (shop)" now, and Dave is not watched.
    const sent = side(CAROL, 'confirmed', NOW, { from: CAROL, to: DAVE, tx: '0xbb' });
    expect(sent.body.split('\n')[0]).toBe('Carol');
    const renamed = namingOf(new Map([...LABELS, [CAROL, 'Carol (shop)']]));
    const [row] = inboxRows([sent], renamed);
    expect(row).toMatchObject({ who: 'Carol (shop)', body: `To ${shortPrincipal(DAVE)}\n“rent”` });
    // Unlabelled and with no BNS name: the short address.
    expect(inboxRows([sent], namingOf(new Map()))[0]!.who).toBe(shortPrincipal(CAROL));
  });

  it('leaves a pair unnamed: its words name both sides', () => {
    const [row] = inboxRows([side(ALICE, 'confirmed', NOW), side(WALKER, 'confirmed', NOW)], naming);
    expect([row!.who, row!.title]).toEqual(['', '4.30 STX · Alice → Walker']);
  });

  it('says to a screen reader whether it is read, its address, what happened and when', () => {
    const sent = side(CAROL, 'confirmed', NOW - 180_000, { from: CAROL, to: DAVE, tx: '0xbb' });
    const [row] = inboxRows([sent], naming);
    expect(inboxRowName(row!, NOW)).toBe('Unread: Carol: Sent 4.30 STX · fee 0.00018 STX, 3 min ago');
    expect(inboxRowName({ ...row!, read: true }, NOW)).toBe('Carol: Sent 4.30 STX · fee 0.00018 STX, 3 min ago');
    const [pair] = inboxRows([side(ALICE, 'confirmed', NOW), side(WALKER, 'confirmed', NOW)], naming);
    expect(inboxRowName(pair!, NOW)).toBe('Unread: 4.30 STX · Alice → Walker, just now');
    // Where the row marks its network (addresses on both), the name says it too.
    expect(inboxRowName(row!, NOW, { markNetwork: true })).toMatch(/^Unread: Carol Testnet: Sent /);
    expect(inboxRowName(pair!, NOW, { markNetwork: true })).toBe(
      'Unread: Testnet: 4.30 STX · Alice → Walker, just now',
    );
  });
});

describe('the open app’s words for a transfer between two watched addresses', () => {
  const watch = (principal: string, label: string): WatchEntry => ({
    principal,
    network: 'testnet',
    kind: 'single-sig',
    label,
    addedAt: 0,
  });
  const context = (entries: WatchEntry[]) =>
    pageTextContext({ entries: () => entries, tokens: { get: () => undefined }, snapshots: { get: () => undefined } });
  const item = (principal: string): AlertItem => ({
    id: alertId('testnet', principal, '0xaa'),
    network: 'testnet',
    principal,
    subject: '0xaa',
    phase: 'confirmed',
    activity: transfer(principal, ALICE, WALKER, '0xaa', 4_300_000n, 'success'),
    amount: null,
    at: NOW,
    catchUp: false,
  });
  const told = (entries: WatchEntry[]) => toldAlone(item(ALICE), context(entries));

  it('pairs on the watch list, labelled or not, and words the pair with the labels', () => {
    expect(told([watch(ALICE, 'Alice'), watch(WALKER, 'Walker')]).data.pair?.title).toBe('4.30 STX · Alice → Walker');
    expect(told([watch(ALICE, 'Alice'), watch(WALKER, '')]).data.pair?.title).toBe(
      `4.30 STX · Alice → ${shortPrincipal(WALKER)}`,
    );
    expect(told([watch(ALICE, 'Alice')]).data.pair).toBeUndefined();
  });
});

describe('a call of a watched contract by a watched address in the inbox', () => {
  const VAULT = `${CAROL}.demo-vault`;
  const labels = new Map([...LABELS, [VAULT, 'Vault contract']]);
  /** Alice's call of demo-vault.withdraw, moving nothing yet, as `principal` sees it. */
  const called = (principal: string, phase: Phase, at: number): InboxEntry => {
    const activity: Activity = {
      txId: '0xcc',
      status: STATUS[phase] ?? 'success',
      kind: 'contract_call',
      counterparty: principal === ALICE ? VAULT : ALICE,
      stxNet: principal === ALICE ? -2_000n : 0n,
      fee: 2_000n,
      memo: null,
      contractCall: { contractId: VAULT, functionName: 'withdraw' },
      blockHeight: phase === 'pending' ? null : 12,
      time: 1_700_000_000,
      sender: ALICE,
      movements: null,
    };
    const item: AlertItem = {
      id: alertId('testnet', principal, '0xcc'),
      network: 'testnet',
      principal,
      subject: '0xcc',
      phase,
      activity,
      amount: null,
      at,
      catchUp: false,
    };
    const words = { ...text, label: (p: string) => labels.get(p) ?? '' };
    return withAlert(undefined, item, {
      title: alertTitle(item, words),
      body: alertBody(item, words),
      path: `/address/${principal}#tx-0xcc`,
    });
  };

  it('is one row while pending, and when it fails, standing for both alerts', () => {
    for (const [phase, title] of [
      ['pending', 'Alice → demo-vault.withdraw — pending'],
      ['failed', 'Failed: Alice → demo-vault.withdraw'],
    ] as const) {
      const entries = [called(VAULT, phase, NOW + 1), called(ALICE, phase, NOW)];
      const rows = inboxRows(entries, namingOf(labels));
      expect(rows.map((row) => [row.title, row.ids.length, row.principals])).toEqual([[title, 2, [ALICE, VAULT]]]);
      expect(unreadRows(entries)).toBe(1);
    }
  });

  it('is one row saying the miners skipped it, not that it failed (problematic_skipped)', () => {
    const skipped = (principal: string, at: number): InboxEntry => {
      const entry = called(principal, 'failed', at);
      const facts = entry.facts as AlertFacts;
      return { ...entry, facts: { ...facts, activity: { ...facts.activity!, statusDetail: 'problematic_skipped' } } };
    };
    const rows = inboxRows([skipped(VAULT, NOW + 1), skipped(ALICE, NOW)], namingOf(labels));
    expect(rows.map((row) => [row.title, row.ids.length])).toEqual([
      ['Skipped as problematic: Alice → demo-vault.withdraw', 2],
    ]);
  });

  it('is one row for a mint to a watched address by a watched caller', () => {
    const token = `${CAROL}.wgold`;
    const minted = (principal: string): InboxEntry => {
      const activity: Activity = {
        txId: '0xee',
        status: 'success',
        kind: 'contract_call',
        counterparty: principal === ALICE ? token : ALICE,
        stxNet: principal === ALICE ? -2_000n : 0n,
        fee: 2_000n,
        memo: null,
        contractCall: { contractId: token, functionName: 'mint' },
        blockHeight: 12,
        time: 1_700_000_000,
        sender: ALICE,
        movements: [
          { type: 'ft', assetIdentifier: `${token}::gold`, kind: 'mint', sender: null, recipient: WALKER, amount: 7n },
        ],
      };
      const item: AlertItem = {
        id: alertId('testnet', principal, '0xee'),
        network: 'testnet',
        principal,
        subject: '0xee',
        phase: 'confirmed',
        activity,
        amount: null,
        at: NOW,
        catchUp: false,
      };
      return withAlert(undefined, item, {
        title: alertTitle(item, text),
        body: alertBody(item, text),
        path: `/address/${principal}#tx-0xee`,
      });
    };
    const rows = inboxRows([minted(WALKER), minted(ALICE)], naming);
    expect(rows.map((row) => [row.title, row.ids.length, row.principal])).toEqual([
      ['7 base units of gold · Alice → Walker', 2, WALKER],
    ]);
  });
});
