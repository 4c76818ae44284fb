import type { UseStore } from 'idb-keyval';
import { DEFAULT_RULES, type AlertRules } from '../domain/alerts/alert-rules.ts';
import { createStore } from '../domain/create-store.ts';
import type { Network } from '../domain/network.ts';
import { GuardedRecord } from './guarded-record.ts';
import { DATABASES, openSettingsDatabase } from './keys.ts';
import { DEFAULT_ALERT_SETTINGS, readAlertSettings, SETTINGS_VERSION } from './settings-schema.ts';
import { storageHealth, type StorageHealthBoard } from './storage-health.ts';

/** While the app is open and focused: an in-app toast (default) or the system notification all the same. */
export type WhileOpen = 'toast' | 'system';

export interface AlertSettings {
  readonly whileOpen: WhileOpen;
  /** Rules by `network:principal`; an address without an entry follows the defaults. */
  readonly rules: Readonly<Record<string, AlertRules>>;
}

const rulesKey = (network: Network, principal: string): string => `${network}:${principal}`;

/** The alert rules of each address and how alerts show while the app is open; shared by every tab. */
export class AlertSettingsStore {
  private readonly settings = createStore<AlertSettings>(DEFAULT_ALERT_SETTINGS);
  private readonly record: GuardedRecord<AlertSettings>;

  constructor(
    db: UseStore = openSettingsDatabase(),
    private readonly channel: BroadcastChannel | null = null,
    health: StorageHealthBoard = storageHealth,
  ) {
    const place = { database: DATABASES.settings, key: 'alerts', record: 'the alert settings' };
    this.record = new GuardedRecord(db, place, readAlertSettings, health);
    channel?.addEventListener('message', () => void this.load());
  }

  async load(): Promise<void> {
    const stored = await this.record.read();
    if (stored === undefined) return;
    this.settings.set(stored);
  }

  readonly get = this.settings.get;
  readonly subscribe = this.settings.subscribe;

  rulesFor(network: Network, principal: string): AlertRules {
    return this.get().rules[rulesKey(network, principal)] ?? DEFAULT_RULES;
  }

  setRules(network: Network, principal: string, rules: AlertRules): Promise<void> {
    const settings = this.get();
    return this.save({ ...settings, rules: { ...settings.rules, [rulesKey(network, principal)]: rules } });
  }

  setWhileOpen(whileOpen: WhileOpen): Promise<void> {
    return this.save({ ...this.get(), whileOpen });
  }

  /** Writes the settings in memory again (the stored ones were deleted under the app); nothing to do at defaults. */
  async resave(): Promise<void> {
    const settings = this.get();
    if (settings !== DEFAULT_ALERT_SETTINGS) await this.save(settings);
  }

  private async save(next: AlertSettings): Promise<void> {
    this.settings.set(next);
    await this.record.write({ version: SETTINGS_VERSION, ...next });
    this.channel?.postMessage('changed');
  }
}
