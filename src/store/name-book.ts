import type { UseStore } from 'idb-keyval';
import { CachedRecords } from './cached-records.ts';
import { openNameDatabase } from './keys.ts';

/**
 * BNS names of the addresses the alerts and screens mention (counterparties), looked up once each and kept in
 * IndexedDB: an address is named as its owner registered it. An empty name means it has none.
 */
export class NameBook extends CachedRecords<string> {
  constructor(db: UseStore = openNameDatabase(), channel: BroadcastChannel | null = null) {
    super(db, channel, 'a BNS name');
  }

  /** The name, null when it has none, undefined when not looked up yet. */
  get(principal: string): string | null | undefined {
    const name = this.read(principal);
    return name === undefined ? undefined : name || null;
  }

  /** Keeps `null` (no name) as an empty one, so that it is not asked again. */
  override async add(principal: string, name: string | null): Promise<void> {
    await super.add(principal, name ?? '');
  }
}
