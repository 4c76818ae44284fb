/**
 * Requests from the screens to the live data engine, which loads after the first paint: requests made before it
 * is ready wait for it.
 */
type Handler = (principal: string) => void;

let handler: Handler | null = null;
const waiting = new Set<string>();
let channel: BroadcastChannel | null = null;

export const monitorCommands = {
  /** The address page wants tokens and NFTs. */
  loadHoldings(principal: string): void {
    if (handler) return handler(principal);
    waiting.add(principal);
    // The engine may run in another tab.
    channel?.postMessage({ loadHoldings: principal });
  },
  /** Connects this tab to the others: requests from them arrive here when this tab runs the engine. */
  share(shared: BroadcastChannel): void {
    channel = shared;
    shared.addEventListener('message', (event: MessageEvent<{ loadHoldings?: unknown }>) => {
      const principal = event.data?.loadHoldings;
      if (typeof principal === 'string' && handler) handler(principal);
    });
  },
  connect(loadHoldings: Handler): () => void {
    handler = loadHoldings;
    waiting.forEach(loadHoldings);
    waiting.clear();
    return () => {
      handler = null;
    };
  },
};
