import { get, set, type UseStore } from 'idb-keyval';
import { base64url, isDeviceId, isDeviceSecret } from '../domain/relay-device.ts';
import { checkRelayUrl } from '../domain/relay-url.ts';
import { openSettingsDatabase } from './keys.ts';

const KEY = 'relay';
const VERSION = 1;

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

const DEFAULTS: RelaySettings = { enabled: false, url: null, identity: null, cursor: null };

/** A new identity: a 16-byte id and a 32-byte secret, both base64url, from the platform's random source. */
export function newIdentity(
  random: (bytes: Uint8Array) => Uint8Array = (bytes) => crypto.getRandomValues(bytes),
): RelayIdentity {
  return { id: base64url(random(new Uint8Array(16))), secret: base64url(random(new Uint8Array(32))) };
}

/** The relay settings of this device, versioned in IndexedDB; an unreadable field falls back to its default. */
export class RelaySettingsStore {
  private settings: RelaySettings = DEFAULTS;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: UseStore = openSettingsDatabase()) {}

  async load(): Promise<void> {
    const record = (await get(KEY, this.db)) as Record<string, unknown> | undefined;
    if (record?.['version'] !== VERSION) return;
    const url = typeof record['url'] === 'string' ? checkRelayUrl(record['url']) : null;
    const identity = record['identity'] as Record<string, unknown> | null | undefined;
    const validIdentity = isDeviceId(identity?.['id']) && isDeviceSecret(identity?.['secret']);
    this.settings = {
      url: url?.ok ? url.value : null,
      identity: validIdentity ? { id: identity!['id'] as string, secret: identity!['secret'] as string } : null,
      enabled: record['enabled'] === true && validIdentity,
      cursor: typeof record['cursor'] === 'string' ? record['cursor'] : null,
    };
    this.notify();
  }

  readonly get = (): RelaySettings => this.settings;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The device's identity, created and stored on first use. */
  async identity(): Promise<RelayIdentity> {
    if (this.settings.identity) return this.settings.identity;
    const identity = newIdentity();
    await this.save({ ...this.settings, identity });
    return identity;
  }

  /** Turned on at `url` (the identity must exist); the cursor is where the relay's feed stood at registration. */
  enable(url: string, cursor: string | null): Promise<void> {
    return this.save({ ...this.settings, url, enabled: true, cursor });
  }

  /** Turned off: the identity is forgotten with the device at the relay; the next time is a new device. */
  disable(): Promise<void> {
    return this.save({ ...this.settings, enabled: false, identity: null, cursor: null });
  }

  setUrl(url: string): Promise<void> {
    return this.save({ ...this.settings, url });
  }

  setCursor(cursor: string): Promise<void> {
    return this.save({ ...this.settings, cursor });
  }

  private async save(next: RelaySettings): Promise<void> {
    this.settings = next;
    this.notify();
    await set(KEY, { version: VERSION, ...next }, this.db);
  }

  private notify(): void {
    this.listeners.forEach((listener) => listener());
  }
}
