/**
 * Requests from the screens to the live data engine, which loads after the first paint: requests made before it
 * is ready wait for it.
 */
type Handler = (principal: string) => void;
type Command = 'loadHoldings' | 'reconcile';

interface Handlers {
  readonly loadHoldings: Handler;
  readonly reconcile: Handler;
}

let handlers: Handlers | null = null;
const waiting = new Map<Command, Set<string>>([
  ['loadHoldings', new Set()],
  ['reconcile', new Set()],
]);
let channel: BroadcastChannel | null = null;

function request(command: Command, principal: string): void {
  if (handlers) return handlers[command](principal);
  waiting.get(command)!.add(principal);
  // The engine may run in another tab.
  channel?.postMessage({ [command]: principal });
}

export const monitorCommands = {
  /** The address page wants tokens and NFTs. */
  loadHoldings(principal: string): void {
    request('loadHoldings', principal);
  },
  /** The address is read again over REST (the relay's catch-up no longer held what happened to it). */
  reconcile(principal: string): void {
    request('reconcile', principal);
  },
  /** Connects this tab to the others: requests from them arrive here when this tab runs the engine. */
  share(shared: BroadcastChannel): void {
    channel = shared;
    shared.addEventListener('message', (event: MessageEvent<Partial<Record<Command, unknown>>>) => {
      for (const command of ['loadHoldings', 'reconcile'] as const) {
        const principal = event.data?.[command];
        if (typeof principal === 'string' && handlers) handlers[command](principal);
      }
    });
  },
  connect(loadHoldings: Handler, reconcile: Handler = () => undefined): () => void {
    handlers = { loadHoldings, reconcile };
    for (const [command, principals] of waiting) {
      principals.forEach(handlers[command]);
      principals.clear();
    }
    return () => {
      handlers = null;
    };
  },
};
