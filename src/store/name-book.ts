import { entries, set, type UseStore } from 'idb-keyval';
import { openNameDatabase } from './keys.ts';

/**
 * BNS names of the addresses the alerts and screens mention (counterparties), looked up once each and kept in
 * IndexedDB: an address is named as its owner registered it. An empty name means the address has none.
 */
export class NameBook {
  private readonly known = new Map<string, string>();
  private readonly listeners = new Set<() => void>();
  version = 0;

  constructor(
    private readonly db: UseStore = openNameDatabase(),
    private readonly channel: BroadcastChannel | null = null,
  ) {
    channel?.addEventListener('message', () => void this.load());
  }

  async load(): Promise<void> {
    for (const [principal, name] of await entries<string, string>(this.db)) this.known.set(principal, name);
    this.changed();
  }

  /** The name, null when it has none, undefined when not looked up yet. */
  get(principal: string): string | null | undefined {
    const name = this.known.get(principal);
    return name === undefined ? undefined : name || null;
  }

  async add(principal: string, name: string | null): Promise<void> {
    this.known.set(principal, name ?? '');
    this.changed();
    await set(principal, name ?? '', this.db).then(
      () => this.channel?.postMessage('changed'),
      (error: unknown) => console.warn('Could not keep a BNS name', error),
    );
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    this.version += 1;
    this.listeners.forEach((listener) => listener());
  }
}
