import type { UseStore } from 'idb-keyval';
import { createStore } from '../domain/create-store.ts';
import { base64url } from '../domain/relay/relay-device.ts';
import { GuardedRecord } from './guarded-record.ts';
import { DATABASES, openSettingsDatabase } from './keys.ts';
import { DEFAULT_RELAY_SETTINGS, readRelaySettings } from './relay-settings-schema.ts';
import { SETTINGS_VERSION } from './settings-schema.ts';
import { storageHealth, type StorageHealthBoard } from './storage-health.ts';

/** This device at the relay: a random id and the secret that alone may change it (fixed when it is created). */
export interface RelayIdentity {
  readonly id: string;
  readonly secret: string;
}

export interface RelaySettings {
  /** Off by default: nothing reaches a relay until the user turns it on. */
  readonly enabled: boolean;
  /** The relay's base URL as last saved (null: none chosen, the runtime config's or an empty field is offered). */
  readonly url: string | null;
  readonly identity: RelayIdentity | null;
  /** Where the next catch-up of the relay's alerts feed starts (null: from its beginning). */
  readonly cursor: string | null;
}

/** A new identity: a 16-byte id and a 32-byte secret, both base64url, from the platform's random source. */
export function newIdentity(
  random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): RelayIdentity {
  return { id: base64url(random(new Uint8Array(16))), secret: base64url(random(new Uint8Array(32))) };
}

/**
 * The relay settings of this device, versioned in IndexedDB; an unreadable field falls back to its default. Shared by
 * every tab: a change is told on `channel`, and the other tabs read the record again.
 */
export class RelaySettingsStore {
  private readonly settings = createStore<RelaySettings>(DEFAULT_RELAY_SETTINGS);
  private readonly record: GuardedRecord<RelaySettings>;

  constructor(
    db: UseStore = openSettingsDatabase(),
    health: StorageHealthBoard = storageHealth,
    private readonly channel: BroadcastChannel | null = null,
  ) {
    const place = {
      database: DATABASES.settings,
      key: 'relay',
      record: 'the settings of alerts when the app is closed',
    };
    this.record = new GuardedRecord(db, place, readRelaySettings, health);
    channel?.addEventListener('message', () => void this.load());
  }

  async load(): Promise<void> {
    const stored = await this.record.read();
    if (stored === undefined) return;
    this.settings.set(stored);
  }

  readonly get = this.settings.get;
  readonly subscribe = this.settings.subscribe;

  /**
   * The device's identity, created and stored on first use. Read from storage first: another tab may have made it
   * since this one last read, and a second identity would be a second device at the relay.
   */
  async identity(): Promise<RelayIdentity> {
    if (!this.get().identity) await this.load();
    const current = this.get().identity;
    if (current) return current;
    const identity = newIdentity();
    await this.save({ ...this.get(), identity });
    return identity;
  }

  /** Turned on at `url` (the identity must exist); the cursor is where the relay's feed stood at registration. */
  enable(url: string, cursor: string | null): Promise<void> {
    return this.save({ ...this.get(), url, enabled: true, cursor });
  }

  /** Turned off: the identity is forgotten with the device at the relay; the next time is a new device. */
  disable(): Promise<void> {
    return this.save({ ...this.get(), enabled: false, identity: null, cursor: null });
  }

  setUrl(url: string): Promise<void> {
    return this.save({ ...this.get(), url });
  }

  setCursor(cursor: string): Promise<void> {
    return this.save({ ...this.get(), cursor });
  }

  /** Writes the settings in memory again (the stored ones were deleted under the app); nothing to do at defaults. */
  async resave(): Promise<void> {
    const settings = this.get();
    if (settings !== DEFAULT_RELAY_SETTINGS) await this.save(settings);
  }

  private async save(next: RelaySettings): Promise<void> {
    this.settings.set(next);
    await this.record.write({ version: SETTINGS_VERSION, ...next });
    this.channel?.postMessage('changed');
  }
}
