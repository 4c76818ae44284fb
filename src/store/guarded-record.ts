import { get, set, setMany, type UseStore } from 'idb-keyval';
import { KEYS } from './keys.ts';
import type { Decoded } from './settings-schema.ts';
import type { StorageHealthBoard } from './storage-health.ts';

/**
 * One record read through a decoder. A record that does not read whole is reported (which record, why), and the
 * first write over it keeps it, in the same transaction, under a key of its own: a user's settings are never lost
 * to a damaged field or to a newer version's record.
 */
export class GuardedRecord<T> {
  private damaged: { raw: unknown } | null = null;

  constructor(
    private readonly db: UseStore,
    private readonly place: { readonly database: string; readonly key: string; readonly record: string },
    private readonly decode: (raw: unknown) => Decoded<T>,
    private readonly health: StorageHealthBoard,
    private readonly now: () => number = Date.now,
  ) {}

  /** The stored value, undefined when there is none. */
  async read(): Promise<T | undefined> {
    const raw: unknown = await get(this.place.key, this.db);
    if (raw === undefined) return undefined;
    const { value, damage } = this.decode(raw);
    const where = `${this.place.database}/${this.place.key}`;
    if (damage === null) {
      this.damaged = null;
      this.health.repaired(where);
    } else {
      this.damaged = { raw };
      this.health.reportDamage({
        record: this.place.record,
        reason: damage,
        instead: 'the defaults are used for it, and the stored record is kept as it was',
        place: where,
        value: raw,
      });
    }
    return value;
  }

  /** Writes `record` (the stored form of a value); a damaged record there is kept aside by the same write. */
  async write(record: unknown): Promise<void> {
    if (!this.damaged) return set(this.place.key, record, this.db);
    await setMany(
      [
        [KEYS.setAside(this.place.key, this.now()), this.damaged.raw],
        [this.place.key, record],
      ],
      this.db,
    );
    this.damaged = null;
  }
}
