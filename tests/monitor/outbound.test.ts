import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveBnsName } from '../../src/chain/bns.ts';
import { listenToOutbound } from '../../src/chain/outbound.ts';
import { testConnection } from '../../src/chain/page/test-connection.ts';
import { revealedPrincipals, type Outbound } from '../../src/domain/privacy/disclosure.ts';
import { RealtimeHub } from '../../mocks/devnet/realtime.ts';
import { mswServer, ORIGIN, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();
afterEach(() => {
  mswServer().events.removeAllListeners();
  vi.restoreAllMocks();
});

/** What the node received, seen by the network stand-in (MSW and the devnet's socket hub), not by the app. */
function recordWhatTheNodeReceives() {
  const requests: string[] = [];
  const topics: string[] = [];
  mswServer().events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (!url.pathname.startsWith('/devnet/')) requests.push(`${request.method} ${url.pathname}${url.search}`);
  });
  const subscribe = RealtimeHub.prototype.subscribe;
  vi.spyOn(RealtimeHub.prototype, 'subscribe').mockImplementation(function (this: RealtimeHub, client, named) {
    topics.push(...named);
    return subscribe.call(this, client, named);
  });
  const unsubscribe = RealtimeHub.prototype.unsubscribe;
  vi.spyOn(RealtimeHub.prototype, 'unsubscribe').mockImplementation(function (this: RealtimeHub, client, named) {
    topics.push(...named);
    return unsubscribe.call(this, client, named);
  });
  return { requests, topics };
}

function recordWhatTheAppTells() {
  const told: Outbound[] = [];
  const stop = listenToOutbound((outbound) => told.push(outbound));
  const requests = () =>
    told.flatMap((outbound) => {
      if (outbound.via !== 'http') return [];
      const url = new URL(outbound.url);
      return [`GET ${url.pathname}${url.search}`];
    });
  // What reached the node: a connection attempt names its handshake's topics as tried, and again once answered.
  const topics = () =>
    told.flatMap((outbound) => (outbound.via === 'socket' && outbound.answered !== false ? outbound.topics : []));
  return { told, stop, requests, topics };
}

describe('every request is told to the privacy record as it leaves', () => {
  it('the monitor’s requests and socket topics, each one, as the node received them', async () => {
    const received = recordWhatTheNodeReceives();
    const app = recordWhatTheAppTells();
    const { devnet, monitor, until, control } = rig();
    const [alice, bob, carol] = devnet.chain.accounts.people.map((person) => person.address);
    await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '1234' });
    await control('/devnet/mine', {});
    monitor.start([alice!, bob!]);
    await until(bob!, (snapshot) => snapshot.syncedAt !== null);
    await monitor.loadHoldings(alice!);
    await monitor.setPrincipals([alice!]);
    monitor.stop();
    app.stop();

    expect(app.requests().sort()).toEqual(received.requests.sort());
    expect(app.topics().sort()).toEqual(received.topics.sort());
    expect(received.topics).toContain(`address-transaction:${bob}`);
    expect(received.requests.some((request) => request.includes('/metadata/v1/ft/'))).toBe(true);
    const watched = new Set([alice!, bob!, carol!]);
    const named = new Set(app.told.flatMap((outbound) => revealedPrincipals(outbound, watched)));
    expect([...named].sort()).toEqual([alice!, bob!].sort());
    expect(new Set(app.told.map((outbound) => outbound.purpose))).toEqual(new Set(['chain', 'live', 'tokens']));
  });

  it('a BNS lookup and a connection test, with what they asked', async () => {
    const received = recordWhatTheNodeReceives();
    const app = recordWhatTheAppTells();
    rig();
    await resolveBnsName(ORIGIN, 'carol.btc', 'testnet');
    await testConnection(ORIGIN, null);
    app.stop();
    expect(app.requests()).toEqual(received.requests);
    expect(app.told.map((outbound) => outbound.purpose)).toEqual(['names', 'test']);
  });
});
