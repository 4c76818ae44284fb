/**
 * Requests from the screens to the live data engine, which loads after the first paint: requests made before it
 * is ready wait for it.
 */
type Handler = (principal: string) => void;

let handler: Handler | null = null;
const waiting = new Set<string>();

export const monitorCommands = {
  /** The address page wants tokens and NFTs. */
  loadHoldings(principal: string): void {
    if (handler) handler(principal);
    else waiting.add(principal);
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
