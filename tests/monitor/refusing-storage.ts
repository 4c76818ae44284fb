import type { AlertLedgerPort, InboxPort } from '../../src/monitor/ports.ts';

/**
 * The alerts' storage refuses every write once `refuse()` is called, for good: what an alerter judges from then on is
 * never stored, as when the app (or the relay) is closed while its writes wait for the storage to come back.
 */
export function refusable(ledgers: AlertLedgerPort, inbox: InboxPort) {
  let refusing = false;
  const refused = () => Promise.reject(new Error('the storage refuses writes'));
  return {
    refuse: () => void (refusing = true),
    ledgers: {
      load: () => ledgers.load(),
      save: (list) => (refusing ? refused() : ledgers.save(list)),
    } as AlertLedgerPort,
    inbox: {
      load: () => inbox.load(),
      get: (id) => inbox.get(id),
      list: () => inbox.list(),
      change: (changes) => (refusing ? refused() : inbox.change(changes)),
    } as InboxPort,
  };
}
