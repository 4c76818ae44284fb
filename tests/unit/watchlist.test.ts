import { c32address } from 'c32check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePrincipal, type Principal } from '../../src/domain/address/address.ts';
import { normaliseLabel, describeLabelError } from '../../src/domain/address/label.ts';
import {
  addEntry,
  describeDuplicate,
  mergeEntries,
  moveEntry,
  removeEntry,
  renameEntry,
  restoreEntry,
  type WatchList,
} from '../../src/domain/watch/watchlist.ts';

const principalOf = (n: number, version = 22): Principal => {
  const result = parsePrincipal(c32address(version, n.toString(16).padStart(40, '0')));
  if (!result.ok) throw new Error('test address must parse');
  return result.value;
};

function listOf(count: number): WatchList {
  let list: WatchList = [];
  for (let n = count; n >= 1; n--) {
    const added = addEntry(list, principalOf(n), `entry ${n}`, 1000 + n);
    if (!added.ok) throw new Error('unexpected duplicate');
    list = added.value;
  }
  return list;
}

const labels = (list: WatchList) => list.map((entry) => entry.label);

describe('the watch list', () => {
  it('adds at the top, bound to the network and kind of the address', () => {
    const testnetMultisig = principalOf(7, 21);
    const added = addEntry(listOf(2), testnetMultisig, 'Multisig', 42);
    expect(added.ok && added.value[0]).toEqual({
      principal: testnetMultisig.principal,
      network: 'testnet',
      kind: 'multi-sig',
      label: 'Multisig',
      addedAt: 42,
    });
  });

  it('refuses a duplicate, saying which entry already has it', () => {
    const list = listOf(3);
    const again = addEntry(list, principalOf(2), 'other label', 5);
    expect(again).toEqual({ ok: false, error: { kind: 'duplicate', existing: list[1], position: 2 } });
    if (!again.ok)
      expect(describeDuplicate(again.error)).toBe(
        'You already watch this address: it is “entry 2”, number 2 in your list.',
      );
    const unlabelled = addEntry([], principalOf(9), '', 1);
    const dup = unlabelled.ok ? addEntry(unlabelled.value, principalOf(9), '', 2) : unlabelled;
    expect(dup.ok).toBe(false);
    if (dup.ok) return;
    expect(describeDuplicate(dup.error)).toMatch(/an unlabelled entry, number 1/);
    // One with no label is named on the list by the BNS name learned for it since: the message names it so too.
    expect(describeDuplicate(dup.error, 'alice.btc')).toBe(
      'You already watch this address: it is “alice.btc”, number 1 in your list.',
    );
  });

  it('renames one entry and leaves the others untouched (same objects)', () => {
    const list = listOf(3);
    const renamed = renameEntry(list, list[1]!.principal, 'Treasury');
    expect(labels(renamed)).toEqual(['entry 1', 'Treasury', 'entry 3']);
    expect(renamed[0]).toBe(list[0]);
    expect(renamed[2]).toBe(list[2]);
  });

  it('removes an entry and undo puts it back in its place', () => {
    const list = listOf(4);
    const removed = removeEntry(list, list[2]!.principal);
    expect(removed && labels(removed.list)).toEqual(['entry 1', 'entry 2', 'entry 4']);
    expect(removed && labels(restoreEntry(removed.list, removed.removal))).toEqual(labels(list));
    expect(removeEntry(list, 'SP-not-there')).toBeNull();
  });

  it('undo is a no-op when the address was added again meanwhile', () => {
    const list = listOf(2);
    const removed = removeEntry(list, list[0]!.principal)!;
    const readded = addEntry(removed.list, principalOf(1), 'back', 9);
    expect(readded.ok && restoreEntry(readded.value, removed.removal)).toBe(readded.ok && readded.value);
  });

  it('moves an entry, clamping to the ends', () => {
    const list = listOf(4);
    expect(labels(moveEntry(list, list[3]!.principal, 0))).toEqual(['entry 4', 'entry 1', 'entry 2', 'entry 3']);
    expect(labels(moveEntry(list, list[0]!.principal, 99))).toEqual(['entry 2', 'entry 3', 'entry 4', 'entry 1']);
    expect(moveEntry(list, list[0]!.principal, -1)).toBe(list);
  });

  it('merges without duplicates, keeping the existing entries and their labels', () => {
    const list = listOf(2);
    const incoming = [...listOf(3)].map((entry) => ({ ...entry, label: `imported ${entry.label}` }));
    const merged = mergeEntries(list, [...incoming, incoming[2]!]);
    expect(labels(merged.list)).toEqual(['entry 1', 'entry 2', 'imported entry 3']);
    expect(merged).toMatchObject({ added: 1, skipped: 3 });
  });

  it('reordering is a permutation: nothing is lost or duplicated', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(19), fc.integer({ min: -2, max: 22 })), { maxLength: 30 }), (moves) => {
        let list = listOf(20);
        for (const [from, to] of moves) list = moveEntry(list, list[from]!.principal, to);
        expect([...labels(list)].sort()).toEqual([...labels(listOf(20))].sort());
      }),
    );
  });
});

describe('labels', () => {
  it('are trimmed with inner whitespace collapsed', () => {
    expect(normaliseLabel('  Cold \n  wallet ')).toEqual({ ok: true, value: 'Cold wallet' });
  });

  it('may be up to 64 characters, counting an emoji as one', () => {
    expect(normaliseLabel('🐋'.repeat(64)).ok).toBe(true);
    const long = normaliseLabel('x'.repeat(65));
    expect(long).toEqual({ ok: false, error: { kind: 'too-long', length: 65 } });
    if (!long.ok) expect(describeLabelError(long.error)).toBe('The label has 65 characters; keep it to 64 or fewer.');
  });

  it('refuse invisible control characters', () => {
    expect(normaliseLabel('a\u0000b')).toEqual({ ok: false, error: { kind: 'control-character' } });
  });
});
