import { describe, expect, it } from 'vitest';
import { SocketIoFeed, type FeedHandlers } from '../../src/chain/feed.ts';
import { GlobalWebSocketTransport } from '../devnet/support/transports.ts';
import { ORIGIN, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();

describe('the Socket.IO feed', () => {
  it('isolates a principal the node refuses, and the others still get their events', async () => {
    const { devnet, control } = rig();
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    const refused: string[] = [];
    const events: string[] = [];
    let connected!: () => void;
    const ready = new Promise<void>((resolve) => (connected = resolve));
    const handlers: FeedHandlers = {
      onState: () => {},
      onConnected: () => connected(),
      onBlock: () => {},
      onMempool: () => {},
      onAddressTransaction: (principal) => events.push(principal),
      onAddressBalance: () => {},
      onTransaction: () => {},
      onRefused: (principal) => refused.push(principal),
    };
    const feed = new SocketIoFeed(ORIGIN, handlers, { transports: [GlobalWebSocketTransport] }, { ackTimeoutMs: 300 });
    try {
      void feed.setPrincipals([alice!, 'NOT_AN_ADDRESS', bob!]);
      await ready;
      expect(refused).toEqual(['NOT_AN_ADDRESS']);
      await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '1' });
      await control('/devnet/mine', {});
      await expect.poll(() => events, { timeout: 5000 }).toEqual([alice, bob]);
    } finally {
      feed.close();
    }
  });
});
