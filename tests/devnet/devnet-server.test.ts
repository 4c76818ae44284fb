import { afterAll, beforeAll, describe } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { realtimeContract } from './support/realtime-contract.ts';
import { restContract } from './support/rest-contract.ts';
import type { DevnetTarget } from './support/target.ts';

let devnet: RunningDevnet;
let target: DevnetTarget;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null });
  target = { url: devnet.url, node: devnet.node, socketOptions: { transports: ['websocket'] } };
});

afterAll(() => devnet?.close());

describe('the devnet server: REST', () => restContract(() => target));
describe('the devnet server: Socket.IO', () => realtimeContract(() => target));
