import { http, HttpResponse } from 'msw';
import { c32address } from 'c32check';
import { describe, expect, it, vi } from 'vitest';
import type { FeedHandlers } from '../../src/chain/feed.ts';
import { StacksRestClient } from '../../src/chain/rest-client.ts';
import { middleEllipsis } from '../../src/domain/address/middle-ellipsis.ts';
import { stxBalance } from '../../mocks/devnet/serialize-v1.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS } from '../../src/chain/scheduler.ts';
import type { ResumeAnchor } from '../../src/domain/state/resume-anchor.ts';
import { NetworkMonitor } from '../../src/monitor/network-monitor.ts';
import type { ActivitySink } from '../../src/monitor/ports.ts';
import { mswServer, ORIGIN, rig, serveDevnetThroughMsw, type Rig } from './harness.ts';

serveDevnetThroughMsw();

const minedIds = (snapshot: { recent: readonly { txId: string }[] }) =>
  snapshot.recent.map((activity) => activity.txId);

/** `count` transfers from `sender` to `recipient`, one after the other; resolves with their ids. */
async function transfers(control: Rig['control'], sender: string, recipient: string, count: number) {
  const txIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const { tx_id } = await control('/devnet/transfer', { sender, recipient, amount: String(100 + index) });
    txIds.push(String(tx_id));
  }
  return txIds;
}

/** Drops the devnet's sockets and waits until the monitor says it is reconnecting. */
async function dropSocket(monitor: NetworkMonitor, control: Rig['control']): Promise<void> {
  const states: string[] = [];
  const stop = monitor.subscribe(() => states.push(monitor.status.feed));
  await control('/devnet/faults', { disconnect: true });
  await vi.waitFor(() => expect(states).toContain('reconnecting'));
  stop();
}

/** A sink that notes each transaction state it is told, as `principal txId status source`. */
function spySink(): { sink: ActivitySink; told: string[] } {
  const told: string[] = [];
  return {
    told,
    sink: {
      activities: (_network, principal, activities, source) =>
        activities.forEach((activity) => told.push(`${principal} ${activity.txId} ${activity.status} ${source}`)),
      baseline: (_network, principal, activities) =>
        activities.forEach((activity) => told.push(`${principal} ${activity.txId} ${activity.status} baseline`)),
      reverted: () => {},
      forked: () => {},
      balance: () => {},
      wantsDetail: () => false,
    },
  };
}

describe('the network monitor, against the devnet through MSW and the real client library', () => {
  it('first sync costs two requests per address; a warm one none with nothing mined, else one 304 without an anchor', async () => {
    let anchor: ResumeAnchor | null = null;
    const { devnet, monitor, until, control } = rig({ anchors: { get: () => anchor, set: (next) => (anchor = next) } });
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    const { tx_id } = await control('/devnet/transfer', {
      sender: alice,
      recipient: bob,
      amount: '1234',
      memo: 'welcome',
    });
    await control('/devnet/mine', {});
    const seen: string[] = [];
    mswServer().events.on('response:mocked', ({ request, response }) => {
      const path = new URL(request.url).pathname;
      if (path.includes('/principals/')) seen.push(`${path.split('/').slice(5).join('/')} ${response.status}`);
    });
    monitor.start([alice!, bob!]);
    const snapshot = await until(bob!, (s) => s.syncedAt !== null);
    expect(snapshot.stx?.total).toBe(devnet.chain.state.stx.get(bob!)!.balance);
    expect(snapshot.recent[0]).toMatchObject({
      txId: tx_id,
      status: 'success',
      stxNet: 1234n,
      counterparty: alice,
      memo: 'welcome',
    });
    await monitor.reconcile();
    expect(seen.sort()).toEqual(['balances/stx 200', 'balances/stx 200', 'transactions 200', 'transactions 200']);
    seen.length = 0;
    // The tip is still the block the last reconcile ended at: nothing to ask about any address.
    expect(anchor).toMatchObject({ height: devnet.chain.tip.height, indexHash: devnet.chain.tip.indexHash });
    await monitor.reconcile();
    expect(seen).toEqual([]);
    // Without it (an app that never completed a reconcile on this chain), each address costs one conditional read.
    anchor = null;
    await monitor.reconcile();
    expect(seen).toEqual(['transactions 304', 'transactions 304']);
    mswServer().events.removeAllListeners();
  });

  it('an event updates the snapshot: pending on mempool entry, then confirmed with the new balance', async () => {
    const { devnet, monitor, until, control } = rig();
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    monitor.start([bob!]);
    await until(bob!, (s) => s.syncedAt !== null);
    const { tx_id } = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '5000' });
    const pending = await until(bob!, (s) => s.pending.some((a) => a.txId === tx_id));
    expect(pending.pending[0]).toMatchObject({ status: 'pending', stxNet: 5000n });
    await control('/devnet/mine', {});
    const mined = await until(bob!, (s) => minedIds(s).includes(String(tx_id)) && s.pending.length === 0);
    await until(bob!, (s) => s.stx?.total === devnet.chain.state.stx.get(bob!)!.balance);
    expect(mined.recent[0]).toMatchObject({ status: 'success' });
  });

  it('what happens while disconnected appears after the reconnect, exactly once', async () => {
    const { devnet, monitor, until, control } = rig();
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    monitor.start([bob!]);
    await until(bob!, (s) => s.syncedAt !== null);
    await dropSocket(monitor, control);
    const missed = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '77' });
    await control('/devnet/mine', {});
    const after = await until(bob!, (s) => minedIds(s).includes(String(missed['tx_id'])));
    expect(minedIds(after).filter((id) => id === missed['tx_id'])).toHaveLength(1);
    expect(monitor.status.feed).toBe('live');
  });

  it('says when its live feed was lost (the figures were current until then), and nothing once live again', async () => {
    const { devnet, monitor, until, control } = rig();
    const bob = devnet.chain.accounts.people[1]!.address;
    monitor.start([bob]);
    await until(bob, (s) => s.syncedAt !== null);
    await expect.poll(() => monitor.status.feed, { timeout: 10_000 }).toBe('live');
    expect(monitor.status.liveUntil ?? null).toBeNull();
    const before = Date.now();
    const lost: (number | null | undefined)[] = [];
    const stop = monitor.subscribe(() => monitor.status.feed !== 'live' && lost.push(monitor.status.liveUntil));
    await dropSocket(monitor, control);
    stop();
    expect(lost[0]).toBeGreaterThanOrEqual(before);
    expect(lost[0]).toBeLessThanOrEqual(Date.now());
    await expect.poll(() => monitor.status.feed, { timeout: 10_000 }).toBe('live');
    expect(monitor.status.liveUntil).toBeNull();
  });

  it('an address with no history yet catches up on more than a page missed while disconnected', async () => {
    const { devnet, monitor, until, control } = rig();
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    monitor.start([bob!]);
    await until(bob!, (s) => s.syncedAt !== null);
    await dropSocket(monitor, control);
    const missed = await transfers(control, alice!, bob!, 25);
    await control('/devnet/mine', {});
    const after = await until(bob!, (s) => missed.every((txId) => minedIds(s).includes(txId)));
    expect(new Set(minedIds(after))).toEqual(new Set(missed));
  });

  it('reads back to its last full sync even when live events brought newer transactions across the gap', async () => {
    const { devnet, monitor, until, control } = rig();
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    monitor.start([bob!]);
    await until(bob!, (s) => s.syncedAt !== null);
    const missed = await transfers(control, alice!, bob!, 25);
    // The block is mined while the socket is down; the reconcile after the reconnect is slow to read the history.
    await control('/devnet/faults', { disconnect: true, latencyMs: 300 });
    await control('/devnet/mine', {});
    await new Promise<void>((resolve) => {
      const stop = monitor.subscribe(() => {
        if (monitor.status.feed !== 'live' || !monitor.status.syncing) return;
        stop();
        resolve();
      });
    });
    // Meanwhile a newer block arrives live: the newest known transaction is now above the gap.
    const { tx_id: live } = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '7' });
    await control('/devnet/mine', {});
    const after = await until(bob!, (s) => [...missed, String(live)].every((txId) => minedIds(s).includes(txId)));
    expect(minedIds(after)).toHaveLength(26);
  });

  it('tries a failed sync again without waiting for another reconnect', async () => {
    const { devnet, monitor, until, control } = rig({ limits: { maxAttempts: 1 }, retryMs: 100 });
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    monitor.start([bob!]);
    await until(bob!, (s) => s.syncedAt !== null);
    // Each time the feed starts reconnecting (a status told while it reconnects is not another reconnect).
    let reconnects = 0;
    let feed = monitor.status.feed;
    monitor.subscribe(() => {
      if (monitor.status.feed === 'reconnecting' && feed !== 'reconnecting') reconnects += 1;
      feed = monitor.status.feed;
    });
    await control('/devnet/faults', { rateLimit: { rate: 1, retryAfterSeconds: 0 } });
    const { tx_id } = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '9' });
    await control('/devnet/faults', { disconnect: true });
    await control('/devnet/mine', {});
    await expect.poll(() => monitor.status.problem).toMatch(/429|Too Many/);
    const before = reconnects;
    await control('/devnet/faults', { rateLimit: null });
    const after = await until(bob!, (s) => minedIds(s).includes(String(tx_id)));
    expect(after.pending).toEqual([]);
    expect(reconnects).toBe(before);
    // And the feed is followed again.
    await expect.poll(() => monitor.status.feed).toBe('live');
  });

  it('hears live of a pending transaction dropped from the mempool', async () => {
    const { sink, told } = spySink();
    const { devnet, monitor, until, control } = rig({ sink });
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    monitor.start([bob!]);
    await until(bob!, (s) => s.syncedAt !== null);
    const { tx_id } = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '11' });
    await until(bob!, (s) => s.pending.some((activity) => activity.txId === tx_id));
    await control('/devnet/drop', { tx_id });
    await until(bob!, (s) => s.pending.length === 0);
    await vi.waitFor(() => expect(told).toContain(`${bob} ${tx_id} dropped live`));
    expect(told.filter((line) => line.includes('dropped'))).toHaveLength(1);
  });

  it('asks the node about a pending transaction gone from its mempool list: dropped is told, pending kept', async () => {
    const { sink, told } = spySink();
    const { devnet, book, control } = rig();
    const node = {
      network: 'testnet' as const,
      url: ORIGIN,
      name: 'Test devnet',
      apiKey: null,
      limits: PUBLIC_NODE_DEFAULTS,
    };
    // No live feed: only the reconcile can learn of the drop.
    const monitor = new NetworkMonitor({
      node,
      rest: new StacksRestClient(node, new HostScheduler(PUBLIC_NODE_DEFAULTS)),
      book,
      openFeed: () => ({ setPrincipals: async () => {}, setTransactions: () => {}, close: () => {} }),
      feedlessSyncMs: 3_600_000,
      sink,
    });
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    monitor.start([bob!]);
    const { tx_id: dropped } = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '12' });
    const { tx_id: kept } = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '13' });
    await monitor.reconcile();
    expect(
      book
        .get(bob!)
        ?.pending.map((activity) => activity.txId)
        .sort(),
    ).toEqual([dropped, kept].sort());
    await control('/devnet/drop', { tx_id: dropped, status: 'dropped_replace_across_fork' });
    await monitor.reconcile();
    expect(book.get(bob!)?.pending.map((activity) => activity.txId)).toEqual([kept]);
    // The sink hears in order, after what it was told before.
    await monitor.settled();
    expect(told.filter((line) => line.includes('dropped'))).toEqual([`${bob} ${dropped} dropped sync`]);
    monitor.stop();
  });

  it('survives 429s and 5xx within its budget', async () => {
    const { devnet, monitor, scheduler, until, control } = rig({ limits: { perMinute: 600 } });
    const [alice, bob, carol] = devnet.chain.accounts.people.map((person) => person.address);
    await control('/devnet/faults', { rateLimit: { rate: 0.5, retryAfterSeconds: 0 } });
    let failures = 2;
    mswServer().use(
      http.get(`${ORIGIN}/extended/v3/principals/:principal/balances/stx`, () =>
        failures-- > 0 ? new HttpResponse(null, { status: 503 }) : undefined,
      ),
    );
    monitor.start([alice!, bob!, carol!]);
    for (const principal of [alice!, bob!, carol!]) await until(principal, (s) => s.stx !== null);
    expect(scheduler.stats.rateLimited).toBeGreaterThan(0);
    expect(scheduler.stats.retries).toBeGreaterThanOrEqual(scheduler.stats.rateLimited + 2);
    expect(monitor.status.problem).toBeNull();
  });

  it('rejects malformed payloads without touching the store', async () => {
    const { devnet, monitor, book, until, control, problems } = rig();
    const bob = devnet.chain.accounts.people[1]!.address;
    monitor.start([bob]);
    const good = await until(bob, (s) => s.stx !== null);
    await control('/devnet/faults', { malformed: [{ pathPrefix: '/extended/v3/principals', kind: 'wrong-types' }] });
    await control('/devnet/transfer', {
      sender: devnet.chain.accounts.people[0]!.address,
      recipient: bob,
      amount: '9',
    });
    await control('/devnet/mine', {});
    await until(bob, (s) => s.recent.length > good.recent.length);
    await control('/devnet/faults', { disconnect: true });
    await expect
      .poll(() => problems.join('\n'), { timeout: 10_000 })
      .toMatch(/could not be synced \(\$\.results\[0\]|expected an integer string/);
    expect(book.get(bob)?.stx).toBeDefined();
    for (const value of [book.get(bob)!.stx!.total, book.get(bob)!.stx!.available]) expect(typeof value).toBe('bigint');
  });

  it('says in its status, for the connection panel, a negative balance the node sent and it set aside', async () => {
    let handlers: FeedHandlers | null = null;
    const { devnet, monitor, book, until, control, problems } = rig({ onFeed: (given) => (handlers = given) });
    const bob = devnet.chain.accounts.people[1]!.address;
    monitor.start([bob]);
    const good = await until(bob, (s) => s.stx !== null);
    // As the API's fuzzed test chain can send it: the v1 shape of the address-stx-balance topic, below zero.
    handlers!.onAddressBalance(bob, { ...stxBalance(devnet.chain.state, bob), balance: '-5000' });
    expect(monitor.status.setAside).toBe(
      `Test devnet sent a negative balance for ${middleEllipsis(bob)} ($.balance: expected an amount of at least 0, got "-5000"): set aside, the last one read stands.`,
    );
    expect(book.get(bob)?.stx).toEqual(good.stx);
    expect(problems.join('\n')).toMatch(/Ignored a malformed address-stx-balance event/);
    // A good balance read since clears it.
    await control('/devnet/transfer', {
      sender: devnet.chain.accounts.people[0]!.address,
      recipient: bob,
      amount: '7',
    });
    await control('/devnet/mine', {});
    await until(bob, (s) => s.stx?.total === good.stx!.total + 7n);
    await expect.poll(() => monitor.status.setAside).toBeNull();
  });

  it('falls back to the v1 routes on an older node, detected once', async () => {
    const { devnet, monitor, rest, until, control } = rig();
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    await control('/devnet/faults', { oldNode: true });
    await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '31' });
    await control('/devnet/mine', {});
    monitor.start([bob!]);
    const snapshot = await until(bob!, (s) => s.syncedAt !== null);
    expect(rest.usesV3).toBe(false);
    expect(snapshot.recent[0]).toMatchObject({ stxNet: 31n, counterparty: alice, status: 'success' });
    expect(snapshot.stx?.total).toBe(devnet.chain.state.stx.get(bob!)!.balance);
  });

  it('probes an older node for the v3 routes once, not once per address, however many sync at once', async () => {
    const { devnet, monitor, rest, until, control } = rig();
    const people = devnet.chain.accounts.people.map((person) => person.address);
    await control('/devnet/faults', { oldNode: true });
    const v3Answers: number[] = [];
    devnet.observe((request, response) => {
      if (request.url.pathname.startsWith('/extended/v3/')) v3Answers.push(response.status);
    });
    monitor.start(people);
    for (const principal of people) await until(principal, (s) => s.syncedAt !== null);
    expect(rest.usesV3).toBe(false);
    expect(v3Answers).toEqual([404]);
  });

  it('loads tokens and NFTs on request, names them, and keeps them current from balance-changes', async () => {
    const { devnet, monitor, tokens, until, control } = rig();
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    const gold = devnet.chain.assets.tokens[0]!;
    monitor.start([bob!]);
    await until(bob!, (s) => s.syncedAt !== null);
    await monitor.loadHoldings(bob!);
    const loaded = await until(bob!, (s) => s.holdings !== null);
    expect(loaded.holdings?.tokens.get(gold.assetIdentifier)).toBe(
      devnet.chain.state.ftBalance(bob!, gold.assetIdentifier),
    );
    const owned = [...devnet.chain.state.nftOwners.values()].filter((owner) => owner === bob).length;
    expect(loaded.holdings?.nfts.get(devnet.chain.assets.nft.assetIdentifier)).toBe(owned);
    expect(tokens.get(gold.assetIdentifier)).toEqual({ name: 'Watch Gold', symbol: 'WGOLD', decimals: 8 });

    const before = loaded.holdings!.tokens.get(gold.assetIdentifier)!;
    const { tx_id } = await control('/devnet/ft-transfer', {
      sender: alice,
      recipient: bob,
      asset: 'WGOLD',
      amount: '250',
    });
    await control('/devnet/mine', {});
    const after = await until(bob!, (s) => s.holdings?.tokens.get(gold.assetIdentifier) === before + 250n);
    expect(after.recent.find((activity) => activity.txId === tx_id)?.assets).toEqual([
      { type: 'ft', assetIdentifier: gold.assetIdentifier, net: 250n },
    ]);
  });

  it('drops a re-orged transaction and restores the balance once the chain re-organises', async () => {
    const { devnet, monitor, until, control } = rig();
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
    monitor.start([bob!]);
    const before = await until(bob!, (s) => s.syncedAt !== null);
    const { tx_id } = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '8888' });
    await control('/devnet/mine', {});
    await until(bob!, (s) => minedIds(s).includes(String(tx_id)));
    await control('/devnet/reorg', { depth: 1 });
    const after = await until(bob!, (s) => !minedIds(s).includes(String(tx_id)));
    expect(after.stx?.total).toBe(before.stx?.total);
    expect(after.recent).toEqual(before.recent);
  });

  it('reads only the balance when a stacking lock ends, a burn height with no transaction to announce it', async () => {
    const { devnet, monitor, until, control } = rig();
    const carol = devnet.chain.accounts.people[2]!.address;
    const account = devnet.chain.state.stx.get(carol)!;
    expect(account.locked).toBeGreaterThan(0n);
    monitor.start([carol]);
    const locked = await until(carol, (s) => s.syncedAt !== null);
    expect(locked.stx?.locked).toBe(account.locked);
    const unlockAt = locked.stx!.unlockBurnHeight!;
    const seen: string[] = [];
    mswServer().events.on('response:mocked', ({ request, response }) => {
      const path = new URL(request.url).pathname;
      if (path.includes(carol)) seen.push(`${path.split(carol)[1]} ${response.status}`);
    });
    // Blocks below the unlock height ask nothing of the node about Carol.
    const stepsBefore = unlockAt - devnet.chain.tip.burnHeight - 1;
    if (stepsBefore > 0) await control('/devnet/mine', { count: stepsBefore });
    await monitor.settled();
    expect(seen).toEqual([]);
    await control('/devnet/mine', {});
    const unlocked = await until(carol, (s) => s.stx?.locked === 0n);
    // The ledger, not the code under test, says what the balance is now.
    expect(unlocked.stx?.available).toBe(devnet.chain.state.stx.get(carol)!.balance);
    expect(seen).toEqual(['/balances/stx 200']);
  });

  it('syncs over REST when the realtime feed cannot connect', async () => {
    const { devnet, book } = rig();
    const node = {
      network: 'testnet' as const,
      url: ORIGIN,
      name: 'No-WebSocket node',
      apiKey: null,
      limits: PUBLIC_NODE_DEFAULTS,
    };
    const states: string[] = [];
    const monitor = new NetworkMonitor({
      node,
      rest: new StacksRestClient(node, new HostScheduler(PUBLIC_NODE_DEFAULTS)),
      book,
      // A feed that never connects, as behind a proxy that refuses WebSockets.
      openFeed: (handlers) => {
        handlers.onState('reconnecting');
        return { setPrincipals: async () => {}, setTransactions: () => {}, close: () => states.push('closed') };
      },
      feedlessSyncMs: 20,
      restPollMs: 50,
    });
    const bob = devnet.chain.accounts.people[1]!.address;
    monitor.start([bob]);
    await expect
      .poll(() => book.get(bob)?.stx?.total, { timeout: 5000 })
      .toBe(devnet.chain.state.stx.get(bob)!.balance);
    monitor.stop();
    expect(states).toEqual(['closed']);
  });

  it('subscribes 1,000 addresses and hears an event for the last one', async () => {
    const { devnet, monitor, until, control } = rig();
    const many = Array.from({ length: 1000 }, (_, n) => c32address(26, `d${n.toString(16).padStart(39, '0')}`));
    monitor.start(many);
    await until(many[999]!, (s) => s.syncedAt !== null, 30_000);
    const { tx_id } = await control('/devnet/transfer', {
      sender: devnet.chain.accounts.people[0]!.address,
      recipient: many[999],
      amount: '3',
    });
    await control('/devnet/mine', {});
    const snapshot = await until(many[999]!, (s) => minedIds(s).includes(String(tx_id)), 15_000);
    expect(snapshot.recent[0]).toMatchObject({ stxNet: 3n });
  });
});
