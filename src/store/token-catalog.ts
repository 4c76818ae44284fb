import { entries, set, type UseStore } from 'idb-keyval';
import type { TokenMetadata } from '../domain/snapshot.ts';
import { openTokenDatabase } from './keys.ts';

/** Token names, symbols and decimals by contract, cached in IndexedDB: they never change once deployed. */
export class TokenCatalog {
  private readonly known = new Map<string, TokenMetadata>();
  private readonly listeners = new Set<() => void>();
  version = 0;

  constructor(
    private readonly db: UseStore = openTokenDatabase(),
    private readonly channel: BroadcastChannel | null = null,
  ) {
    channel?.addEventListener('message', () => void this.load());
  }

  async load(): Promise<void> {
    for (const [contractId, metadata] of await entries<string, TokenMetadata>(this.db))
      this.known.set(contractId, metadata);
    this.changed();
  }

  /** By contract id or asset identifier (`contract::name`). */
  get(assetOrContract: string): TokenMetadata | undefined {
    return this.known.get(assetOrContract.split('::')[0] ?? assetOrContract);
  }

  has(contractId: string): boolean {
    return this.known.has(contractId);
  }

  async add(contractId: string, metadata: TokenMetadata): Promise<void> {
    this.known.set(contractId, metadata);
    this.changed();
    await set(contractId, metadata, this.db).then(
      () => this.channel?.postMessage('changed'),
      (error: unknown) => console.warn('Could not cache token metadata', error),
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
