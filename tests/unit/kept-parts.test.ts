import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { KEEP_PARTS_MS, keptPartsText, readKeptParts } from '../../src/domain/watch/kept-parts.ts';
import { readParts, shareFragments, type SharePart } from '../../src/domain/watch/share-code.ts';
import { KeptPartsStore } from '../../src/store/kept-parts-store.ts';

const hash = (n: number) => n.toString(16).padStart(40, '0');
/** A list of `count` addresses as its share fragments: 12 make two codes. */
const fragmentsOf = (count: number, seed: number) =>
  shareFragments(
    Array.from({ length: count }, (_, n) => ({
      entry: {
        principal: c32address(22, hash(seed + n)),
        network: 'mainnet' as const,
        kind: 'single-sig' as const,
        label: `Savings ${n + 1}`,
        addedAt: 0,
      },
      rules: null,
    })),
  );
const partsOf = (fragments: readonly string[]): SharePart[] => readParts(fragments, []).parts;

/** localStorage as the browser has it, in memory. */
class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  key = (at: number) => [...this.items.keys()][at] ?? null;
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
  clear = () => this.items.clear();
}

const NOW = 1_700_000_000_000;
const [first, second] = fragmentsOf(12, 100);
const other = fragmentsOf(12, 500);

describe('the codes kept between page loads', () => {
  it('are two codes for the test list, of one transfer', () => {
    expect(fragmentsOf(12, 100)).toHaveLength(2);
    expect(partsOf([first!])[0]!.set).not.toBe(partsOf([other[0]!])[0]!.set);
  });

  it('read back as the parts that were kept, each checked again', () => {
    const parts = partsOf([first!]);
    expect(readKeptParts(keptPartsText(parts, NOW), NOW + 1000)).toEqual({ savedAt: NOW, parts });
    const damaged = keptPartsText(parts, NOW).replace(/\.([\w-])/, '.x$1');
    expect(readKeptParts(damaged, NOW)).toBeNull();
    for (const text of [null, '', '{', '[]', '{"version":2,"savedAt":0,"parts":[]}', JSON.stringify({ version: 1 })])
      expect(readKeptParts(text, NOW)).toBeNull();
  });

  it('expire KEEP_PARTS_MS after they were kept, and a time from the future is not trusted', () => {
    const text = keptPartsText(partsOf([first!]), NOW);
    expect(readKeptParts(text, NOW + KEEP_PARTS_MS - 1)).not.toBeNull();
    expect(readKeptParts(text, NOW + KEEP_PARTS_MS)).toBeNull();
    expect(readKeptParts(text, NOW - 1)).toBeNull();
  });

  it('belong to one transfer: a record of another list, or holding two lists, is nothing', () => {
    const text = keptPartsText(partsOf([first!]), NOW);
    expect(readKeptParts(text, NOW, partsOf([other[0]!])[0]!.set)).toBeNull();
    const mixed = JSON.stringify({ version: 1, savedAt: NOW, parts: [first, other[1]] });
    expect(readKeptParts(mixed, NOW)).toBeNull();
  });

  it('merge across page loads: code 1 kept by one page, code 2 read by the next, make the whole list', () => {
    const storage = new MemoryStorage();
    const store = new KeptPartsStore(() => storage);
    store.save(partsOf([first!]), NOW);
    const nextPage = new KeptPartsStore(() => storage);
    const known = nextPage.load(NOW + 60_000, partsOf([second!])[0]!.set);
    const { parts, problem } = readParts([second!], known);
    expect(problem).toBeNull();
    expect(parts.map((part) => part.index)).toEqual([1, 2]);
  });

  it('keep two transfers apart, load the newest when no link says which, and forget one when cleared', () => {
    const storage = new MemoryStorage();
    const store = new KeptPartsStore(() => storage);
    const mine = partsOf([first!]);
    const theirs = partsOf([other[1]!]);
    store.save(mine, NOW);
    store.save(theirs, NOW + 1000);
    expect(store.load(NOW + 2000, mine[0]!.set)).toEqual(mine);
    expect(store.load(NOW + 2000, theirs[0]!.set)).toEqual(theirs);
    expect(store.load(NOW + 2000)).toEqual(theirs);
    store.clear(theirs[0]!.set);
    expect(store.load(NOW + 2000)).toEqual(mine);
    expect(storage.length).toBe(1);
  });

  it('remove what has expired when read, and keep nothing where storage is refused', () => {
    const storage = new MemoryStorage();
    const store = new KeptPartsStore(() => storage);
    store.save(partsOf([first!]), NOW);
    storage.setItem('stacks-watch:other-thing', 'kept');
    expect(store.load(NOW + KEEP_PARTS_MS)).toEqual([]);
    expect(storage.length).toBe(1);
    const refusing = new KeptPartsStore(() => {
      throw new Error('SecurityError');
    });
    refusing.save(partsOf([first!]), NOW);
    expect(refusing.load(NOW)).toEqual([]);
  });
});
