/**
 * One tab runs the engine and raises the alerts; the others follow through IndexedDB and BroadcastChannels. The
 * tab holding the Web Lock leads until it closes, when the next tab waiting for the lock takes over.
 */
const LOCK = 'stacks-watch:engine';

export function leadWhenFirst(lead: () => void, lock: string = LOCK): void {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (!locks) {
    // Without Web Locks (an old browser) every tab leads: alerts may then repeat across tabs, never go missing.
    lead();
    return;
  }
  void locks.request(lock, () => {
    lead();
    // Held for the life of the tab.
    return new Promise<never>(() => undefined);
  });
}
