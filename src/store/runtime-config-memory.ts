import { del, get, set, type UseStore } from 'idb-keyval';
import { openSettingsDatabase } from './keys.ts';

const KEY = 'runtime-config';

/**
 * The last runtime config the app's server sent, as it sent it (read by chain/runtime-config.ts's own reader, so a
 * field added there is kept too): used when the server cannot be reached, so that an offline start follows the same
 * nodes and relay as an online one.
 */
export class RuntimeConfigMemory {
  constructor(private readonly db: UseStore = openSettingsDatabase()) {}

  read(): Promise<unknown> {
    return get(KEY, this.db);
  }

  write(raw: unknown): Promise<void> {
    return set(KEY, raw, this.db);
  }

  forget(): Promise<void> {
    return del(KEY, this.db);
  }
}
