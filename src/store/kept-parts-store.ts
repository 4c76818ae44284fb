import { keptPartsText, readKeptParts } from '../domain/watch/kept-parts.ts';
import type { SharePart } from '../domain/watch/share-code.ts';
import { LOCAL_KEYS } from './keys.ts';

/**
 * The codes of a list from another device read so far, in localStorage (not sessionStorage: a link opened in a new
 * tab must find the codes read in another), one key per transfer so that two lists never mix. Expired records are
 * removed whenever the store is read. A device that refuses storage keeps none: the codes are then read in one page.
 */
export class KeptPartsStore {
  constructor(private readonly storage: () => Storage = () => localStorage) {}

  /** The parts kept for the transfer `set`, or for the one read most recently when `set` is not known. */
  load(now: number, set?: string): SharePart[] {
    const kept = this.live(now);
    const found = set === undefined ? kept.sort((a, b) => b.savedAt - a.savedAt)[0] : kept.find((k) => k.set === set);
    return found ? [...found.parts] : [];
  }

  save(parts: readonly SharePart[], now: number): void {
    const set = parts[0]?.set;
    if (set === undefined) return;
    this.attempt((storage) => storage.setItem(LOCAL_KEYS.keptParts(set), keptPartsText(parts, now)));
  }

  clear(set: string | undefined): void {
    if (set !== undefined) this.attempt((storage) => storage.removeItem(LOCAL_KEYS.keptParts(set)));
  }

  private live(now: number) {
    const kept: { set: string; savedAt: number; parts: readonly SharePart[] }[] = [];
    this.attempt((storage) => {
      const keys = Array.from({ length: storage.length }, (_, at) => storage.key(at) ?? '');
      for (const key of keys.filter((name) => name.startsWith(LOCAL_KEYS.keptPartsPrefix))) {
        const set = key.slice(LOCAL_KEYS.keptPartsPrefix.length);
        const record = readKeptParts(storage.getItem(key), now, set);
        if (record) kept.push({ set, ...record });
        else storage.removeItem(key);
      }
    });
    return kept;
  }

  private attempt(act: (storage: Storage) => void): void {
    try {
      act(this.storage());
    } catch {
      // Storage refused (private mode, a full quota): the codes are still read, only not kept across pages.
    }
  }
}
