import { get, set, type UseStore } from 'idb-keyval';
import { isNetwork } from '../domain/network.ts';
import { checkApiKey, checkNodeUrl, type NodeChoice, type NodeChoices } from '../domain/node-settings.ts';
import { openSettingsDatabase } from './keys.ts';

const KEY = 'nodes';
const VERSION = 1;

/** The user's node choices per network, versioned in IndexedDB; an unreadable choice falls back to the default. */
export class NodeSettingsStore {
  private choices: NodeChoices = {};
  private readonly listeners = new Set<() => void>();

  constructor(private readonly db: UseStore = openSettingsDatabase()) {}

  async load(): Promise<void> {
    const record = (await get(KEY, this.db)) as { version?: unknown; nodes?: unknown } | undefined;
    if (record?.version === VERSION && typeof record.nodes === 'object' && record.nodes) {
      const next: Partial<Record<string, NodeChoice>> = {};
      for (const [network, choice] of Object.entries(
        record.nodes as Record<string, { url?: unknown; apiKey?: unknown }>,
      )) {
        const url = checkNodeUrl(String(choice?.url ?? ''));
        const apiKey = checkApiKey(String(choice?.apiKey ?? ''));
        if (isNetwork(network) && url.ok && apiKey.ok) next[network] = { url: url.value, apiKey: apiKey.value };
      }
      this.choices = next;
      this.notify();
    }
  }

  readonly get = (): NodeChoices => this.choices;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  async save(choices: NodeChoices): Promise<void> {
    this.choices = choices;
    this.notify();
    await set(KEY, { version: VERSION, nodes: choices }, this.db);
  }

  private notify(): void {
    this.listeners.forEach((listener) => listener());
  }
}
