import { c32address } from 'c32check';
import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { PrivacyRecord } from '../../src/app/privacy-record.ts';
import { SocketIoFeed } from '../../src/chain/feed.ts';
import { listenToOutbound, sendRequest } from '../../src/chain/outbound.ts';
import type { Outbound } from '../../src/domain/privacy/disclosure.ts';
import type { HostRecord } from '../../src/domain/privacy/disclosure-record.ts';
import type { WatchEntry } from '../../src/domain/watch/watch-entry.ts';
import { IdbDisclosureStore, type DisclosureStore } from '../../src/store/disclosure-store.ts';
import type { WatchlistState } from '../../src/store/watchlist-state.ts';

const ALICE = c32address(26, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const BOB = c32address(26, '1111111111111111111111111111111111111111');
const APP = 'http://app.local';
const NODE = 'http://node.local:3999';
const RELAY = 'https://relay.local';

let dbCount = 0;

/** A watch list that can change, as the controller's subscribers see it. */
function watchList(principals: string[]) {
  const listeners = new Set<() => void>();
  let entries = principals;
  const entry = (principal: string): WatchEntry => ({
    principal,
    network: 'testnet',
    kind: 'single-sig',
    label: '',
    addedAt: 0,
  });
  return {
    getState: (): WatchlistState => ({
      status: 'ready',
      entries: entries.map(entry),
      notice: null,
      saveError: null,
      damaged: null,
    }),
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next: string[]) {
      entries = next;
      listeners.forEach((listener) => listener());
    },
  };
}

/** The IndexedDB store, counting its writes. */
function countingStore(db = createStore(`stacks-watch:privacy:test-${++dbCount}`, 'by-host')) {
  const store = new IdbDisclosureStore(db);
  const counted = {
    writes: 0,
    load: () => store.load(),
    add: (records: readonly HostRecord[]) => {
      counted.writes += 1;
      return store.add(records);
    },
    clear: () => store.clear(),
  };
  return { db, store: counted };
}

function open(store: DisclosureStore, list = watchList([ALICE, BOB]), now = () => 1000) {
  const record = new PrivacyRecord({ store, watchlist: list, ownOrigin: APP, flushMs: 20, now });
  const stop = record.start();
  return { record, stop, list };
}

const get = (url: string, purpose: Outbound['purpose'] = 'chain'): Outbound => ({
  via: 'http',
  url,
  body: null,
  purpose,
});

describe('the privacy record', () => {
  it('records a request that got no answer as tried, not as the host contacted nor told anything', async () => {
    const { store } = countingStore();
    const { record, stop } = open(store);
    const stopListening = listenToOutbound((outbound) => record.note(outbound));
    // As the browser fails a request that never left it (no network, no such name, refused, the page's policy).
    const unreachable = () => Promise.reject(new TypeError('Failed to fetch'));
    const url = `${NODE}/extended/v3/principals/${ALICE}/balances/stx`;
    await expect(sendRequest('chain', url, undefined, unreachable)).rejects.toThrow('Failed to fetch');
    await expect(sendRequest('chain', url, undefined, unreachable)).rejects.toThrow('Failed to fetch');
    const [tried] = record.hosts();
    expect(tried).toMatchObject({ origin: NODE, contact: null, unanswered: { count: 2 }, addresses: {} });
    await expect.poll(async () => (await store.load())[0]?.unanswered?.count).toBe(2);
    expect((await store.load())[0]).toMatchObject({ contact: null, addresses: {} });

    // Answered, it counts as contacted and names what it told; the attempts stay apart.
    await sendRequest('chain', url, undefined, async () => new Response('{}'));
    expect(record.hosts()[0]).toMatchObject({
      contact: { count: 1 },
      unanswered: { count: 2 },
      addresses: { [ALICE]: { count: 1 } },
    });
    stopListening();
    stop();
  });

  it('records a live feed that never connected as tried: its handshake told the host nothing', async () => {
    const { store } = countingStore();
    const { record, stop } = open(store);
    const stopListening = listenToOutbound((outbound) => record.note(outbound));
    // Nothing listens on this loopback port: every attempt is refused before a handshake reaches anyone.
    const nobody = 'http://127.0.0.1:9';
    const states: string[] = [];
    const quiet = () => undefined;
    const feed = new SocketIoFeed(
      nobody,
      {
        onState: (state) => states.push(state),
        onConnected: quiet,
        onBlock: quiet,
        onMempool: quiet,
        onAddressTransaction: quiet,
        onAddressBalance: quiet,
        onTransaction: quiet,
        onRefused: quiet,
      },
      { reconnectionDelay: 20, reconnectionDelayMax: 40, transports: ['websocket'] },
    );
    try {
      await expect.poll(() => record.hosts()[0]?.unanswered?.count ?? 0).toBeGreaterThanOrEqual(2);
      expect(record.hosts()[0]).toMatchObject({ origin: nobody, contact: null, addresses: {} });
      expect(states).toContain('reconnecting');
    } finally {
      feed.close();
      stopListening();
      stop();
    }
  });

  it('notes each host with the watched addresses it was told, not the app’s own files, in one write per moment', async () => {
    const { store } = countingStore();
    const { record, stop } = open(store);
    record.note(get(`${APP}/stacks-watch-config.json`, 'app'));
    record.note(get('/assets/index.js', 'app'));
    record.note(get(`${NODE}/extended/v3/principals/${ALICE}/balances/stx`));
    record.note(get(`${NODE}/extended/v3/principals/${ALICE}/transactions`));
    record.note({ via: 'socket', url: NODE, topics: [`address-transaction:${BOB}`], purpose: 'live' });
    record.note({
      via: 'http',
      url: `${RELAY}/v1/devices/abc`,
      body: JSON.stringify({ watches: [{ principal: BOB }] }),
      purpose: 'relay',
    });
    // On screen at once, before it is written.
    expect(record.hosts().map((host) => host.origin)).toEqual([NODE, RELAY].sort());
    await expect.poll(() => store.writes).toBe(1);
    await expect.poll(async () => (await store.load()).length).toBe(2);
    const node = (await store.load()).find((host) => host.origin === NODE)!;
    expect(node.contact?.count).toBe(3);
    expect(node.purposes).toEqual(['chain', 'live']);
    expect(node.addresses).toEqual({
      [ALICE]: { first: 1000, last: 1000, count: 2 },
      [BOB]: { first: 1000, last: 1000, count: 1 },
    });
    stop();
  });

  it('notes what was sent before it was there when it was sent, naming the watched addresses', async () => {
    const { store } = countingStore();
    const { record, stop } = open(store, watchList([ALICE]), () => 5000);
    record.note(get(`${NODE}/extended/v3/principals/${ALICE}/balances/stx`), 1200);
    expect(record.hosts()[0]?.addresses).toEqual({ [ALICE]: { first: 1200, last: 1200, count: 1 } });
    stop();
  });

  it('survives a reload, and two tabs writing at once both count', async () => {
    const { db, store } = countingStore();
    const first = open(store, watchList([ALICE]), () => 1000);
    const second = open(new IdbDisclosureStore(db), watchList([ALICE]), () => 3000);
    first.record.note(get(`${NODE}/extended/v3/principals/${ALICE}/balances/stx`));
    second.record.note(get(`${NODE}/extended/v3/principals/${ALICE}/balances/stx`));
    await Promise.all([first.record.flush(), second.record.flush()]);
    first.stop();
    second.stop();

    const reloaded = open(new IdbDisclosureStore(db));
    await expect.poll(() => reloaded.record.hosts().length).toBe(1);
    expect(reloaded.record.hosts()[0]!.addresses[ALICE]).toEqual({ first: 1000, last: 3000, count: 2 });
    reloaded.stop();
  });

  it('still names an address after it is removed (its unsubscription tells the node once more)', async () => {
    const { store } = countingStore();
    const { record, stop, list } = open(store);
    list.set([ALICE]);
    record.note({ via: 'socket', url: NODE, topics: [`address-transaction:${BOB}`], purpose: 'live' });
    expect(Object.keys(record.hosts()[0]!.addresses)).toEqual([BOB]);
    stop();
  });

  it('clears the whole record, and records afresh after', async () => {
    const { store } = countingStore();
    const { record, stop } = open(store);
    record.note(get(`${NODE}/extended/v3/principals/${ALICE}/balances/stx`));
    await record.flush();
    record.note(get(`${NODE}/extended/v3/principals/${BOB}/balances/stx`));
    await record.clear();
    expect(record.hosts()).toEqual([]);
    expect(await store.load()).toEqual([]);
    record.note(get(`${RELAY}/v1/vapid-public-key`, 'relay'));
    await record.flush();
    expect((await store.load()).map((host) => host.origin)).toEqual([RELAY]);
    stop();
  });

  it('keeps what it could not write, and writes it with the next', async () => {
    const { store } = countingStore();
    let broken = true;
    const flaky: DisclosureStore = {
      load: () => store.load(),
      add: (records) => (broken ? Promise.reject(new DOMException('full', 'QuotaExceededError')) : store.add(records)),
      clear: () => store.clear(),
    };
    const { record, stop } = open(flaky);
    record.note(get(`${NODE}/extended/v3/principals/${ALICE}/balances/stx`));
    await record.flush();
    expect(record.hosts()).toHaveLength(1);
    broken = false;
    record.note(get(`${NODE}/extended/v3/principals/${ALICE}/balances/stx`));
    await record.flush();
    expect((await store.load())[0]!.addresses[ALICE]!.count).toBe(2);
    stop();
  });
});
