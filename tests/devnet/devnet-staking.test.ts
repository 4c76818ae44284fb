import { setupServer } from 'msw/node';
import { describe } from 'vitest';
import { WebSocket } from 'ws';
import { devnetHandlers } from '../../mocks/devnet/msw.ts';
import { DevnetNode } from '../../mocks/devnet/node.ts';
import { RealtimeHub } from '../../mocks/devnet/realtime.ts';
import { startDevnet } from '../../mocks/devnet/server.ts';
import { stakingContract } from './support/staking-contract.ts';

// Node 20 has no global WebSocket for MSW's `ws` link to intercept; give it the `ws` one.
globalThis.WebSocket ??= WebSocket as unknown as typeof globalThis.WebSocket;

describe('PoX-5 staking on the devnet server', () =>
  stakingContract(async () => {
    const devnet = await startDevnet({ port: 0, blockMs: null });
    return { url: devnet.url, node: devnet.node, close: () => devnet.close() };
  }));

describe('PoX-5 staking through MSW over the same model', () =>
  stakingContract(async () => {
    const origin = 'http://devnet.test:3999';
    const node = new DevnetNode({ blockMs: null });
    const hub = new RealtimeHub(node.chain);
    const server = setupServer(...devnetHandlers(node, hub, origin));
    server.listen({ onUnhandledRequest: 'error' });
    return {
      url: origin,
      node,
      close: async () => {
        server.close();
        hub.close();
        node.close();
      },
    };
  }));
