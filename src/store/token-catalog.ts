import type { UseStore } from 'idb-keyval';
import type { TokenMetadata } from '../domain/state/snapshot.ts';
import { CachedRecords } from './cached-records.ts';
import { openTokenDatabase } from './keys.ts';

/** Token names, symbols and decimals by contract, cached in IndexedDB: they never change once deployed. */
export class TokenCatalog extends CachedRecords<TokenMetadata> {
  constructor(db: UseStore = openTokenDatabase(), channel: BroadcastChannel | null = null) {
    super(db, channel, 'token metadata');
  }

  /** By contract id or asset identifier (`contract::name`). */
  get(assetOrContract: string): TokenMetadata | undefined {
    return this.read(assetOrContract.split('::')[0] ?? assetOrContract);
  }
}
