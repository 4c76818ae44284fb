import 'fake-indexeddb/auto';
import { WebSocket } from 'ws';

// Node 20 has no global WebSocket for MSW to intercept; give it the `ws` one (anything unhandled would go through).
globalThis.WebSocket ??= WebSocket as unknown as typeof globalThis.WebSocket;
