import { get, set, type UseStore } from 'idb-keyval';
import { DEFAULT_RULES, readRules, type AlertRules } from '../domain/alert-rules.ts';
import type { Network } from '../domain/network.ts';
import { openSettingsDatabase } from './keys.ts';

const KEY = 'alerts';
const VERSION = 1;

/** While the app is open and focused: an in-app toast (default) or the system notification all the same. */
export type WhileOpen = 'toast' | 'system';

export interface AlertSettings {
  readonly whileOpen: WhileOpen;
  /** Rules by `network:principal`; an address without an entry follows the defaults. */
  readonly rules: Readonly<Record<string, AlertRules>>;
}

const DEFAULTS: AlertSettings = { whileOpen: 'toast', rules: {} };
const rulesKey = (network: Network, principal: string): string => `${network}:${principal}`;

/** The alert rules of each address and how alerts show while the app is open; shared by every tab. */
export class AlertSettingsStore {
  private settings: AlertSettings = DEFAULTS;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly db: UseStore = openSettingsDatabase(),
    private readonly channel: BroadcastChannel | null = null,
  ) {
    channel?.addEventListener('message', () => void this.load());
  }

  async load(): Promise<void> {
    const record = (await get(KEY, this.db)) as { version?: unknown; whileOpen?: unknown; rules?: unknown } | undefined;
    if (record?.version !== VERSION) return;
    const rules: Record<string, AlertRules> = {};
    if (typeof record.rules === 'object' && record.rules !== null)
      for (const [key, value] of Object.entries(record.rules)) rules[key] = readRules(value);
    this.settings = { whileOpen: record.whileOpen === 'system' ? 'system' : 'toast', rules };
    this.notify();
  }

  readonly get = (): AlertSettings => this.settings;

  rulesFor(network: Network, principal: string): AlertRules {
    return this.settings.rules[rulesKey(network, principal)] ?? DEFAULT_RULES;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  setRules(network: Network, principal: string, rules: AlertRules): Promise<void> {
    return this.save({ ...this.settings, rules: { ...this.settings.rules, [rulesKey(network, principal)]: rules } });
  }

  setWhileOpen(whileOpen: WhileOpen): Promise<void> {
    return this.save({ ...this.settings, whileOpen });
  }

  private async save(next: AlertSettings): Promise<void> {
    this.settings = next;
    this.notify();
    await set(KEY, { version: VERSION, ...next }, this.db);
    this.channel?.postMessage('changed');
  }

  private notify(): void {
    this.listeners.forEach((listener) => listener());
  }
}
