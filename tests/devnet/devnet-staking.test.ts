import { setupServer } from 'msw/node';
import { describe } from 'vitest';
import { WebSocket } from 'ws';
import { devnetHandlers } from '../../mocks/devnet/msw.ts';
import { DevnetNode } from '../../mocks/devnet/node.ts';
import { RealtimeHub } from '../../mocks/devnet/realtime.ts';
import { startDevnet } from '../../mocks/devnet/server.ts';
import { bondsContract } from './support/bonds-contract.ts';
import type { OpenDevnet } from './support/staking-kit.ts';
import { stakingContract } from './support/staking-contract.ts';

// Node 20 has no global WebSocket for MSW's `ws` link to intercept; give it the `ws` one.
globalThis.WebSocket ??= WebSocket as unknown as typeof globalThis.WebSocket;

async function onServer(): Promise<OpenDevnet> {
  const devnet = await startDevnet({ port: 0, blockMs: null });
  return { url: devnet.url, node: devnet.node, close: () => devnet.close() };
}

async function throughMsw(): Promise<OpenDevnet> {
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
}

describe('PoX-5 staking on the devnet server', () => stakingContract(onServer));
describe('PoX-5 bonds and signers on the devnet server', () => bondsContract(onServer));
describe('PoX-5 staking through MSW over the same model', () => stakingContract(throughMsw));
describe('PoX-5 bonds and signers through MSW over the same model', () => bondsContract(throughMsw));
