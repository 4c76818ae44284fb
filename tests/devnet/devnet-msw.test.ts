import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe } from 'vitest';
import { WebSocket } from 'ws';
import { devnetHandlers } from '../../mocks/devnet/msw.ts';
import { DevnetNode } from '../../mocks/devnet/node.ts';
import { RealtimeHub } from '../../mocks/devnet/realtime.ts';
import { realtimeContract } from './support/realtime-contract.ts';
import { restContract } from './support/rest-contract.ts';
import type { DevnetTarget } from './support/target.ts';
import { GlobalWebSocketTransport } from './support/transports.ts';

// Node 20 has no global WebSocket for MSW to intercept; give it the `ws` one (anything unhandled would go through).
globalThis.WebSocket ??= WebSocket as unknown as typeof globalThis.WebSocket;

const ORIGIN = 'http://devnet.test:3999';
const node = new DevnetNode({ blockMs: null });
const hub = new RealtimeHub(node.chain);
const server = setupServer(...devnetHandlers(node, hub, ORIGIN));
const target: DevnetTarget = { url: ORIGIN, node, socketOptions: { transports: [GlobalWebSocketTransport as never] } };

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  hub.close();
});

describe('the devnet through MSW: REST', () => restContract(() => target));
describe('the devnet through MSW: Socket.IO', () => realtimeContract(() => target));
