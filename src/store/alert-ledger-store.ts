import { delMany, entries, setMany, type UseStore } from 'idb-keyval';
import { ledgerKey, type AlertLedger } from '../domain/alerts/alert-ledger.ts';
import { openAlertLedgerDatabase } from './keys.ts';

const VERSION = 1;
interface StoredLedger {
  readonly version: typeof VERSION;
  readonly ledger: AlertLedger;
}

export { ledgerKey };

/** What the alerts have seen, one record per address; written only by the tab that runs the engine. */
export class AlertLedgerStore {
  constructor(private readonly db: UseStore = openAlertLedgerDatabase()) {}

  /** Every stored ledger by `network:principal`; a record of another version is rebuilt (its address re-baselined). */
  async load(): Promise<Map<string, AlertLedger>> {
    const ledgers = new Map<string, AlertLedger>();
    for (const [key, value] of await entries<string, StoredLedger>(this.db))
      if (value?.version === VERSION) ledgers.set(key, value.ledger);
    return ledgers;
  }

  save(ledgers: readonly AlertLedger[]): Promise<void> {
    return setMany(
      ledgers.map((ledger) => [ledgerKey(ledger), { version: VERSION, ledger } satisfies StoredLedger]),
      this.db,
    );
  }

  forget(keys: readonly string[]): Promise<void> {
    return delMany([...keys], this.db);
  }
}
