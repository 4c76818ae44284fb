import { c32address } from 'c32check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePrincipal } from '../../src/domain/address/address.ts';
import type { WatchEntry } from '../../src/domain/watch/watch-entry.ts';
import {
  journalOffer,
  journalReadded,
  journalRemoval,
  journalRestore,
  journalStored,
  reconcileJournal,
  UNDO_WINDOW_MS,
  type KeptUndo,
  type RemovalJournal,
} from '../../src/domain/watch/removal-journal.ts';
import { newEntry, removeEntry, type Removal, type WatchList } from '../../src/domain/watch/watchlist.ts';
import type { WatchlistPersistence } from '../../src/store/idb-watchlist-store.ts';
import { MemoryRemovalJournal, parseJournal } from '../../src/store/removal-journal-store.ts';
import { createWatchlistController } from '../../src/store/watchlist-controller.ts';
import type { WatchlistController } from '../../src/store/watchlist-state.ts';

const entry = (n: number): WatchEntry => {
  const parsed = parsePrincipal(c32address(26, n.toString(16).padStart(40, '0')));
  if (!parsed.ok) throw new Error('test address must parse');
  return newEntry(parsed.value, `Entry ${n}`, 1000 + n);
};
const LIST: WatchList = [1, 2, 3, 4].map(entry);
const principals = (list: WatchList) => list.map((item) => item.principal);
const removal = (list: WatchList, n: number): { list: WatchList; removal: Removal } =>
  removeEntry(list, entry(n).principal)!;
const T0 = 1_000_000;

describe('the removal journal, reconciled at start with the list as storage has it', () => {
  it('makes good a removal whose save never committed, and offers its Undo again with the time it had left', () => {
    const { removal: removed } = removal(LIST, 2);
    const journal = journalRemoval([], removed, T0);
    const reconciled = reconcileJournal(journal, LIST, T0 + 3_000);
    expect(principals(reconciled.list)).toEqual(principals(LIST).filter((p) => p !== entry(2).principal));
    expect(reconciled.undo).toEqual({ removal: removed, leftMs: UNDO_WINDOW_MS - 3_000 });
    // Not stored until the list it returned is saved; then kept only for the Undo on offer.
    expect(reconciled.journal).toMatchObject([{ kind: 'removed', stored: false }]);
    const saved = journalStored(reconciled.journal, reconciled.list);
    expect(saved).toMatchObject([{ kind: 'removed', stored: true, offerUntil: T0 + UNDO_WINDOW_MS }]);
    expect(journalOffer(saved, entry(2).principal, null)).toEqual([]);
  });

  it('leaves a saved removal as stored and only offers its Undo again', () => {
    const { list, removal: removed } = removal(LIST, 3);
    const journal = journalStored(journalRemoval([], removed, T0), list);
    const reconciled = reconcileJournal(journal, list, T0 + 1);
    expect(reconciled.list).toBe(list);
    expect(reconciled.undo?.removal).toEqual(removed);
  });

  it('never brings back a removal whose Undo is over, even when its save never committed', () => {
    const { removal: removed } = removal(LIST, 1);
    for (const journal of [journalRemoval([], removed, T0), journalOffer(journalRemoval([], removed, T0), 'x', null)]) {
      const reconciled = reconcileJournal(journal, LIST, T0 + UNDO_WINDOW_MS + 1);
      expect(principals(reconciled.list)).not.toContain(entry(1).principal);
      expect(reconciled.undo).toBeNull();
      // Kept until the list without it is stored, then gone.
      expect(reconciled.journal).toHaveLength(1);
      expect(journalStored(reconciled.journal, reconciled.list)).toEqual([]);
    }
  });

  it('makes good an Undo whose save never committed: the entry back once, where it was', () => {
    const { list, removal: removed } = removal(LIST, 2);
    const journal = journalRestore(journalStored(journalRemoval([], removed, T0), list), removed);
    const reconciled = reconcileJournal(journal, list, T0 + 1);
    expect(principals(reconciled.list)).toEqual(principals(LIST));
    expect(reconciled.undo).toBeNull();
    expect(journalStored(reconciled.journal, reconciled.list)).toEqual([]);
    // Storage that already has it: nothing added twice.
    expect(reconcileJournal(journal, LIST, T0 + 1).list).toBe(LIST);
  });

  it('lets an address added again stay, and offers only the newest removal', () => {
    const first = removal(LIST, 1);
    const second = removal(first.list, 4);
    let journal = journalRemoval(journalRemoval([], first.removal, T0), second.removal, T0 + 500);
    journal = journalReadded(journal, [entry(1), ...second.list]);
    expect(journal.find((record) => record.entry.principal === entry(1).principal)?.kind).toBe('restored');
    const third = removal(second.list, 2);
    journal = journalRemoval(journal, third.removal, T0 + 1_000);
    const reconciled = reconcileJournal(journal, LIST, T0 + 2_000);
    expect(principals(reconciled.list)).toEqual([entry(1), entry(3)].map((item) => item.principal));
    expect(reconciled.undo?.removal.entry.principal).toBe(entry(2).principal);
    expect(reconciled.journal.filter((record) => record.kind === 'removed' && record.offerUntil !== null)).toHaveLength(
      1,
    );
  });

  it('reads back what it wrote, and takes a damaged or foreign journal for none', () => {
    const journal = journalRestore(journalRemoval([], removal(LIST, 1).removal, T0), removal(LIST, 2).removal);
    expect(parseJournal(JSON.stringify({ version: 1, records: journal }))).toEqual(journal);
    for (const text of ['{', 'null', '[]', JSON.stringify({ version: 2, records: journal })])
      expect(parseJournal(text)).toEqual([]);
    const damaged = [{ ...journal[0], entry: { ...journal[0]!.entry, principal: 'nonsense' } }, journal[1]];
    expect(parseJournal(JSON.stringify({ version: 1, records: damaged }))).toEqual([journal[1]]);
  });
});

/** Storage whose saves commit only when the test says: a page can go away with a save in flight. */
function slowStorage(initial: WatchList) {
  let stored = initial;
  let inFlight: { list: WatchList; commit: () => void } | null = null;
  const persistence: WatchlistPersistence = {
    load: async () => ({ kind: 'loaded', entries: stored }),
    replaceDamaged: async () => {},
    save: (list) =>
      new Promise<void>((resolve) => {
        inFlight = { list, commit: resolve };
      }),
  };
  return {
    persistence,
    stored: () => stored,
    /** The save in flight commits, and the controller hears so. */
    async commit() {
      const save = inFlight;
      if (!save) return;
      inFlight = null;
      stored = save.list;
      save.commit();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    /** The page goes away: the save in flight committed in storage (or not), and the page heard nothing. */
    crash(committed: boolean) {
      if (committed && inFlight) stored = inFlight.list;
      inFlight = null;
    },
  };
}

type Step = { op: 'remove'; n: number } | { op: 'undo' } | { op: 'expire' } | { op: 'commit' } | { op: 'wait' };

const STEP = fc.oneof(
  fc.record({ op: fc.constant('remove' as const), n: fc.integer({ min: 1, max: 5 }) }),
  fc.constant<Step>({ op: 'undo' }),
  fc.constant<Step>({ op: 'expire' }),
  fc.constant<Step>({ op: 'commit' }),
  fc.constant<Step>({ op: 'wait' }),
);

const entriesOf = (controller: WatchlistController): WatchList => {
  const state = controller.getState();
  if (state.status !== 'ready') throw new Error(`not ready: ${state.status}`);
  return state.entries;
};

describe('a reload at any moment after Removes and Undos', () => {
  it('loses nothing, duplicates nothing, and offers the Undo that was on screen', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(STEP, { maxLength: 12 }), fc.boolean(), async (steps, committedAtCrash) => {
        const storage = slowStorage([1, 2, 3, 4, 5].map(entry));
        const journal = new MemoryRemovalJournal();
        let now = T0;
        const open = async () => {
          const controller = createWatchlistController(storage.persistence, { journal, now: () => now });
          await controller.load();
          return controller;
        };
        const controller = await open();
        // The Undo on screen, as app/undo-offer.ts keeps it: a newer removal makes the older one final.
        let offer: { removal: Removal; until: number } | null = null;
        for (const step of steps) {
          if (step.op === 'remove') {
            const removed = controller.remove(entry(step.n).principal);
            if (!removed) continue;
            if (offer && offer.removal.entry.principal !== removed.entry.principal)
              controller.keepUndo(offer.removal, null);
            offer = { removal: removed, until: now + UNDO_WINDOW_MS };
          } else if (step.op === 'undo' && offer && offer.until > now) {
            controller.undo(offer.removal);
            offer = null;
          } else if (step.op === 'expire' && offer) {
            controller.keepUndo(offer.removal, null);
            offer = null;
          } else if (step.op === 'commit') await storage.commit();
          else if (step.op === 'wait') now += UNDO_WINDOW_MS / 3;
        }
        const onScreen = principals(entriesOf(controller));
        storage.crash(committedAtCrash);
        now += 1;

        const reloaded = await open();
        const after = principals(entriesOf(reloaded));
        expect(new Set(after).size).toBe(after.length);
        expect([...after].sort()).toEqual([...onScreen].sort());
        const kept: KeptUndo | null = reloaded.takeKeptUndo();
        const live = offer && offer.until > now ? offer : null;
        expect(kept && { principal: kept.removal.entry.principal, leftMs: kept.leftMs }).toEqual(
          live && { principal: live.removal.entry.principal, leftMs: live.until - now },
        );

        // Undone after the reload: back once. Not undone: never back, however often the app reloads.
        if (kept) reloaded.undo(kept.removal);
        else if (live) reloaded.keepUndo(live.removal, null);
        const final = principals(entriesOf(reloaded));
        storage.crash(false);
        now += UNDO_WINDOW_MS * 2;
        const again = await open();
        expect(principals(entriesOf(again)).sort()).toEqual([...final].sort());
        await storage.commit();
        expect(principals(storage.stored()).sort()).toEqual([...final].sort());
        expect(journal.read()).toEqual([] satisfies RemovalJournal);
      }),
      { numRuns: 300 },
    );
  });
});
