import type { UseStore } from 'idb-keyval';
import { createStore } from '../domain/create-store.ts';
import type { NodeChoices } from '../domain/node-settings.ts';
import { GuardedRecord } from './guarded-record.ts';
import { DATABASES, openSettingsDatabase } from './keys.ts';
import { readNodeSettings, SETTINGS_VERSION } from './settings-schema.ts';
import { storageHealth, type StorageHealthBoard } from './storage-health.ts';

/** The user's node choices per network, versioned in IndexedDB; an unreadable choice falls back to the default. */
export class NodeSettingsStore {
  private readonly choices = createStore<NodeChoices>({});
  private readonly record: GuardedRecord<NodeChoices>;
  private loaded = false;

  constructor(db: UseStore = openSettingsDatabase(), health: StorageHealthBoard = storageHealth) {
    const place = { database: DATABASES.settings, key: 'nodes', record: 'the node settings' };
    this.record = new GuardedRecord(db, place, readNodeSettings, health);
  }

  async load(): Promise<void> {
    const stored = await this.record.read();
    if (stored === undefined) return;
    this.loaded = true;
    this.choices.set(stored);
  }

  readonly get = this.choices.get;
  readonly subscribe = this.choices.subscribe;

  async save(choices: NodeChoices): Promise<void> {
    this.loaded = true;
    this.choices.set(choices);
    await this.record.write({ version: SETTINGS_VERSION, nodes: choices });
  }

  /** Writes the choices in memory again (the stored ones were deleted under the app). */
  async resave(): Promise<void> {
    if (this.loaded) await this.save(this.choices.get());
  }
}
