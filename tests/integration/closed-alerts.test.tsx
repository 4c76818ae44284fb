import { screen, waitFor } from '@testing-library/react';
import { c32address } from 'c32check';
import { createStore } from 'idb-keyval';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PushPort } from '../../src/app/pwa/sw-bridge.ts';
import { monitorCommands } from '../../src/app/monitor-commands.ts';
import { RELAY_CHECK_IN_MS, RelayLink } from '../../src/app/relay-link.ts';
import { relayWordsOnDevice } from '../../src/app/relay-words.ts';
import { alertFacts } from '../../src/domain/alerts/alert-facts.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { parsePrincipal } from '../../src/domain/address/address.ts';
import { NameBook } from '../../src/store/name-book.ts';
import { RelaySettingsStore } from '../../src/store/relay-settings-store.ts';
import { renderApp } from './render-app.tsx';

const RELAY = 'http://127.0.0.1:3990';
const ME = c32address(26, 'c3'.repeat(20));
const KEY = `B${'A'.repeat(86)}`; // base64url of 0x04 followed by zero bytes: a 65-byte uncompressed point's shape
/** Keys of the shape a browser gives (the app checks them against the relay's contract before sending). */
const SUBSCRIPTION = {
  endpoint: 'https://push.example/send/1',
  keys: {
    p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
    auth: 'tBHItJI5svbpez7KI4CCXg',
  },
};
const server = setupServer();
const requests: { method: string; path: string; auth: string | null; body: unknown }[] = [];
let putStatus = 201;
/** The device's newest cursor at the relay, which a PUT answers: never behind what its feed has told. */
let relayCursor = '3';
let putGate: Promise<void> | null = null;

beforeAll(() => server.listen({ onUnhandledRequest: 'bypass' }));
afterEach(() => {
  requests.length = 0;
  putStatus = 201;
  relayCursor = '3';
  putGate = null;
});
afterAll(() => server.close());

const log = async (request: Request) =>
  requests.push({
    method: request.method,
    path: new URL(request.url).pathname + new URL(request.url).search,
    auth: request.headers.get('authorization'),
    body: request.method === 'PUT' ? await request.json() : null,
  });

server.use(
  http.get(`${RELAY}/v1/vapid-public-key`, () => HttpResponse.json({ publicKey: KEY })),
  http.put(`${RELAY}/v1/devices/:id`, async ({ request }) => {
    await log(request);
    await putGate;
    // As a relay following testnet only answers (the relay's own API test proves that contract).
    const watches = (requests.at(-1)!.body as { watches: { network: string; principal: string }[] }).watches;
    const unwatched = watches
      .filter((watch) => watch.network === 'mainnet')
      .map(({ network, principal }) => ({
        network,
        principal,
        reason: 'this relay follows no mainnet node (it follows testnet)',
      }));
    return putStatus < 300
      ? HttpResponse.json(
          { deviceId: 'x', watches: watches.length - unwatched.length, cursor: relayCursor, unwatched },
          { status: putStatus },
        )
      : HttpResponse.json({ error: 'internal', message: 'database is down' }, { status: putStatus });
  }),
  http.delete(`${RELAY}/v1/devices/:id`, async ({ request }) => {
    await log(request);
    return new HttpResponse(null, { status: 204 });
  }),
);

function fakePush(): PushPort & { subscribed: boolean; keys: Uint8Array[] } {
  const push = {
    subscribed: false,
    keys: [] as Uint8Array[],
    current: async () => (push.subscribed ? SUBSCRIPTION : null),
    subscribe: async (key: Uint8Array<ArrayBuffer>) => {
      push.keys.push(key);
      push.subscribed = true;
      return SUBSCRIPTION;
    },
    unsubscribe: async () => {
      const was = push.subscribed;
      push.subscribed = false;
      return was;
    },
  };
  return push;
}

let dbs = 0;
async function renderSettings(
  permission: NotificationPermission = 'granted',
  support: 'supported' | 'needs-home-screen' = 'supported',
  subscribeTimeoutMs?: number,
  /** The retry waits' jitter: all of each wait unless a test says otherwise. */
  random: () => number = () => 1,
) {
  const push = fakePush();
  const store = new RelaySettingsStore(createStore(`relay-settings-${++dbs}`, 'records'));
  let link: RelayLink | null = null;
  const view = await renderApp('/settings', undefined, (stores) => {
    link = new RelayLink({
      store,
      watchlist: stores.watchlist,
      alertSettings: stores.alertSettings,
      inbox: stores.inbox,
      push,
      requestPermission: async () => permission,
      permission: () => permission,
      debounceMs: 10,
      random,
      support: () => support,
      words: relayWordsOnDevice({
        watchlist: stores.watchlist,
        names: new NameBook(createStore(`names-${dbs}`, 'n')),
        tokens: stores.tokens,
        snapshots: stores.book,
      }),
      ...(subscribeTimeoutMs ? { subscribeTimeoutMs } : {}),
    });
    return { relay: { store, link } };
  });
  const principal = parsePrincipal(ME);
  if (!principal.ok) throw new Error('test address');
  view.controller.add(principal.value, 'Cold wallet');
  const toggle = await screen.findByRole('switch', { name: 'Send me alerts when the app is closed' });
  const url = screen.getByLabelText('Relay address');
  return { ...view, push, store, link: link!, toggle, url };
}

describe('Settings → Alerts when the app is closed', () => {
  it('is off by default and says what the relay learns, and never learns', async () => {
    const { toggle } = await renderSettings();
    expect(screen.getByRole('heading', { name: 'Alerts when the app is closed' })).toBeDefined();
    expect((toggle as HTMLInputElement).checked).toBe(false);
    const learns = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(learns).toContain('It learns the addresses you watch, their alert rules and this browser’s push address.');
    expect(learns).toContain('It never learns your keys, your labels or anything else on this device.');
    expect(screen.getByText(/Off: nothing is sent to a relay/)).toBeDefined();
    expect(screen.queryByText(/Add to Home Screen/)).toBeNull();
    expect(requests).toEqual([]);
  });

  it('refuses a plain-http relay on another host, saying why', async () => {
    const { user, toggle, url } = await renderSettings();
    await user.type(url, 'http://relay.example.com');
    await user.click(toggle);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Plain http is only allowed for a relay on this device/,
    );
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(requests).toEqual([]);
  });

  it('turns on after the click: subscribes with the relay’s key, registers the watch list with its rules, no labels', async () => {
    const { user, toggle, url, push, store, stores } = await renderSettings();
    await user.type(url, `${RELAY}/`);
    await user.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    expect(push.keys[0]?.length).toBe(65);
    const identity = store.get().identity!;
    expect(requests).toEqual([
      {
        method: 'PUT',
        path: `/v1/devices/${identity.id}`,
        auth: `Bearer ${identity.secret}`,
        body: {
          subscription: { ...SUBSCRIPTION, expirationTime: null },
          watches: [{ network: 'testnet', principal: ME, rules: { ...DEFAULT_RULES, minimums: {} } }],
        },
      },
    ]);
    expect(JSON.stringify(requests)).not.toContain('Cold wallet');
    expect(store.get()).toMatchObject({ enabled: true, url: RELAY, cursor: '3' });
    expect(await screen.findByText(/On, through http:\/\/127\.0\.0\.1:3990; the relay has your current/)).toBeDefined();

    // A rule change reaches the relay (debounced), with minimums as decimal strings.
    await stores.alertSettings.setRules('testnet', ME, { ...DEFAULT_RULES, pending: false, minimums: { STX: 5n } });
    await waitFor(() => expect(requests).toHaveLength(2));
    expect((requests[1]!.body as { watches: unknown[] }).watches).toEqual([
      { network: 'testnet', principal: ME, rules: { ...DEFAULT_RULES, pending: false, minimums: { STX: '5' } } },
    ]);

    // A change made while a copy is on its way is sent after it.
    let release = () => undefined as void;
    putGate = new Promise((resolve) => (release = resolve));
    await stores.alertSettings.setRules('testnet', ME, { ...DEFAULT_RULES, nfts: false });
    await waitFor(() => expect(requests).toHaveLength(3));
    await stores.alertSettings.setRules('testnet', ME, { ...DEFAULT_RULES, tokens: false });
    release();
    putGate = null;
    await waitFor(() => expect(requests).toHaveLength(4));
    expect((requests[3]!.body as { watches: { rules: { tokens: boolean } }[] }).watches[0]!.rules.tokens).toBe(false);

    // A failure is shown and retried.
    putStatus = 500;
    await stores.alertSettings.setRules('testnet', ME, { ...DEFAULT_RULES, stx: false });
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /The relay failed \(500\): it may be down or restarting\. It said: database is down Trying again in 2 s, or as soon as the app is back in view or online\./,
    );

    // Off: the relay forgets the device and the push subscription ends.
    putStatus = 201;
    requests.length = 0;
    await user.click(toggle);
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(false));
    expect(requests).toEqual([
      { method: 'DELETE', path: `/v1/devices/${identity.id}`, auth: `Bearer ${identity.secret}`, body: null },
    ]);
    expect(push.subscribed).toBe(false);
    expect(store.get()).toMatchObject({ enabled: false, identity: null });
  });

  it('says which addresses the relay cannot watch, and why, by the names the user gave them', async () => {
    const { user, toggle, url, controller } = await renderSettings();
    const treasury = parsePrincipal(c32address(22, 'd4'.repeat(20)));
    if (!treasury.ok) throw new Error('test address');
    controller.add(treasury.value, 'Treasury');
    await user.type(url, RELAY);
    await user.click(toggle);
    const note = await screen.findByRole('note');
    expect(note.textContent).toMatch(/The relay cannot watch one of your addresses: no alerts reach you for it while/);
    expect(note.textContent).toMatch(/While it is open, Stacks Watch alerts them as usual\./);
    expect(note.querySelector('li')?.textContent).toBe(
      'Treasury (Mainnet): this relay follows no mainnet node (it follows testnet)',
    );
    // Both were sent: the relay decides what it can follow, the app says so.
    expect((requests[0]!.body as { watches: { network: string }[] }).watches.map((w) => w.network).sort()).toEqual([
      'mainnet',
      'testnet',
    ]);
    await user.click(toggle);
    await waitFor(() => expect(screen.queryByRole('note')).toBeNull());
  });

  it('does not hang on a push service that never answers: it explains, and a retry turns it on', async () => {
    const { user, toggle, url, push } = await renderSettings('granted', 'supported', 100);
    const answer = push.subscribe;
    push.subscribe = () => new Promise(() => undefined);
    await user.type(url, RELAY);
    // "Turning on…" shows meanwhile, for 0.1 s: too short to catch on a busy machine (relay-push.spec sees it).
    await user.click(toggle);
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /This browser’s push service did not answer within 0.1 s, so it cannot deliver alerts while the app is closed yet\..*try again\./,
    );
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(requests).toEqual([]);
    push.subscribe = answer;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(requests.map((request) => request.method)).toEqual(['PUT']);
  });

  it.each([
    ['does not answer', () => HttpResponse.error(), /could not be reached/],
    [
      'fails (502)',
      () => HttpResponse.json({ error: 'bad-gateway', message: 'upstream down' }, { status: 502 }),
      /The relay failed \(502\): it may be down or restarting\./,
    ],
  ])('turning on while the relay %s says nothing was turned on, and Try again turns it on', async (_, down, said) => {
    const { user, toggle, url, push, store } = await renderSettings();
    server.use(http.put(`${RELAY}/v1/devices/:id`, down, { once: true }));
    await user.type(url, RELAY);
    await user.click(toggle);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Nothing was turned on: /);
    expect(alert.textContent).toMatch(said);
    expect(alert.textContent).not.toMatch(/tried again/);
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(store.get().enabled).toBe(false);
    expect(push.subscribed).toBe(false);
    // The relay is back: the offered retry turns it on.
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(requests.map((request) => request.method)).toEqual(['PUT']);
  });

  const inboxChannel = () => {
    const channel = new BroadcastChannel('stacks-watch:inbox');
    channel.postMessage('changed');
    channel.close();
  };
  it.each([
    ['the app comes back into view', () => document.dispatchEvent(new Event('visibilitychange'))],
    ['the device comes back online', () => window.dispatchEvent(new Event('online'))],
    ['a push from the relay arrives (the service worker tells the inbox channel)', inboxChannel],
  ])('sends a copy the relay refused at once when %s, not at its next backoff', async (_, signal) => {
    server.use(
      http.get(`${RELAY}/v1/devices/:id/alerts`, () => HttpResponse.json({ alerts: [], next: null, more: false })),
    );
    const { store, link } = await renderSettings();
    await store.identity();
    await store.enable(RELAY, '3');
    putStatus = 503;
    // The link's own timers only: its backoff (2 s first) never runs here, so only the signal can send the copy.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await link.start();
      await vi.waitFor(() => expect(link.get().error).toMatch(/\(503\).*Trying again in 2 s/));
      expect(requests).toHaveLength(1);
      putStatus = 201;
      signal();
      await vi.waitFor(async () => {
        await vi.advanceTimersByTimeAsync(0);
        expect(link.get()).toMatchObject({ error: null, busy: null });
      });
      expect(requests.map((request) => request.method)).toEqual(['PUT', 'PUT']);
      expect(link.get().syncedAt).not.toBeNull();
      // Once taken, a signal sends nothing more.
      signal();
      await vi.advanceTimersByTimeAsync(0);
      expect(requests).toHaveLength(2);
    } finally {
      vi.useRealTimers();
      link.stop();
    }
  });

  it('jitters its retry waits (every device comes back when the relay does) and says the wait it chose', async () => {
    server.use(
      http.get(`${RELAY}/v1/devices/:id/alerts`, () => HttpResponse.json({ alerts: [], next: '3', more: false })),
    );
    // The least of each wait: half of 2 s, then half of 5 s (said in whole seconds, as it is kept).
    const { store, link } = await renderSettings('granted', 'supported', undefined, () => 0);
    await store.identity();
    await store.enable(RELAY, '3');
    putStatus = 503;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    /** Lets the answers in (setImmediate is not faked) without moving the faked clock, as vi.waitFor would. */
    const said = async (words: RegExp) => {
      for (let turn = 0; turn < 1_000 && !words.test(link.get().error ?? ''); turn++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(link.get().error).toMatch(words);
    };
    try {
      await link.start();
      await vi.advanceTimersByTimeAsync(10); // the debounce before a copy is sent
      await said(/\(503\).*Trying again in 1 s,/);
      await vi.advanceTimersByTimeAsync(1_000);
      await said(/\(503\).*Trying again in 3 s,/);
    } finally {
      vi.useRealTimers();
      link.stop();
    }
  });

  it('checks in with the relay once a day while it stays open, so the relay never takes it for gone', async () => {
    let catchUps = 0;
    server.use(
      http.get(`${RELAY}/v1/devices/:id/alerts`, () => {
        catchUps += 1;
        return HttpResponse.json({ alerts: [], next: '3', more: false });
      }),
    );
    const { store, link } = await renderSettings();
    await store.identity();
    await store.enable(RELAY, '3');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    try {
      await link.start();
      await vi.waitFor(async () => {
        await vi.advanceTimersByTimeAsync(0);
        expect(link.get().syncedAt).not.toBeNull();
      });
      // The start's own catch-up; vi.waitFor moves the fake clock too, so the checks below stay clear of the edge.
      const atStart = catchUps;
      expect(atStart).toBe(1);
      await vi.advanceTimersByTimeAsync(RELAY_CHECK_IN_MS - 3_600_000);
      expect(catchUps).toBe(atStart);
      await vi.advanceTimersByTimeAsync(3_600_000);
      await vi.waitFor(() => expect(catchUps).toBe(atStart + 1));
      await vi.advanceTimersByTimeAsync(RELAY_CHECK_IN_MS);
      await vi.waitFor(() => expect(catchUps).toBe(atStart + 2));
      link.stop();
      await vi.advanceTimersByTimeAsync(RELAY_CHECK_IN_MS);
      expect(catchUps).toBe(atStart + 2);
    } finally {
      vi.useRealTimers();
      link.stop();
    }
  });

  it('says in words why a browser that refuses a push subscription cannot get closed-app alerts', async () => {
    const { user, toggle, url, push } = await renderSettings();
    push.subscribe = () =>
      Promise.reject(new DOMException('Registration failed - permission denied', 'NotAllowedError'));
    await user.type(url, RELAY);
    await user.click(toggle);
    const said = (await screen.findByRole('alert')).textContent;
    expect(said).toMatch(/^This browser would not give Stacks Watch a push subscription, so alerts cannot reach it/);
    expect(said).toMatch(/Push may be turned off in the browser’s settings, or the browser has no push service/);
    expect(said).toContain('(The browser said: “Registration failed - permission denied”.)');
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(requests).toEqual([]);
  });

  it('renews a push subscription the browser ended while the app was closed, and sends the new one', async () => {
    const { store, link, push } = await renderSettings();
    const identity = await store.identity();
    await store.enable(RELAY, '3');
    expect(push.subscribed).toBe(false);
    await link.start();
    await waitFor(() => expect(requests).toHaveLength(1));
    expect(push.subscribed).toBe(true);
    expect(push.keys[0]?.length).toBe(65);
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      path: `/v1/devices/${identity.id}`,
      body: { subscription: { ...SUBSCRIPTION, expirationTime: null } },
    });
    link.stop();
  });

  it('says once, without retrying, that a subscription cannot be renewed once notifications are blocked', async () => {
    server.use(
      http.get(`${RELAY}/v1/devices/:id/alerts`, () => HttpResponse.json({ alerts: [], next: null, more: false })),
    );
    const { store, push } = await renderSettings();
    let asked = 0;
    const link = new RelayLink({
      store,
      watchlist: { getState: () => ({ status: 'ready', entries: [] }), subscribe: () => () => undefined } as never,
      alertSettings: { rulesFor: () => DEFAULT_RULES, subscribe: () => () => undefined } as never,
      inbox: { change: async () => undefined } as never,
      push,
      requestPermission: async () => 'denied',
      permission: () => {
        asked += 1;
        return 'denied';
      },
      debounceMs: 10,
    });
    await store.identity();
    await store.enable(RELAY, '3');
    // The link's own timers only (IndexedDB and the mocked relay keep theirs), run past its longest retry delay.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      await link.start();
      await vi.waitFor(() => expect(link.get().error).toMatch(/Notifications are not allowed for this site/));
      await vi.advanceTimersByTimeAsync(5 * 60_000);
    } finally {
      vi.useRealTimers();
    }
    expect(asked).toBe(1);
    expect(push.subscribed).toBe(false);
    expect(requests.filter((request) => request.method === 'PUT')).toEqual([]);
    expect(link.get().busy).toBe(null);
    link.stop();
  });

  it('explains a refused notification permission and registers nothing', async () => {
    const { user, toggle, url, push } = await renderSettings('denied');
    await user.type(url, RELAY);
    await user.click(toggle);
    expect((await screen.findByRole('alert')).textContent).toMatch(/Notifications are not allowed for this site/);
    expect(push.subscribed).toBe(false);
    expect(requests).toEqual([]);
  });

  it('on iPhone and iPad outside the Home Screen, explains that it needs the app added there', async () => {
    const { toggle } = await renderSettings('granted', 'needs-home-screen');
    expect(screen.getByText(/alerts reach a closed app only once it is on the Home Screen/).textContent).toMatch(
      /“Add to Home Screen”/,
    );
    expect((toggle as HTMLInputElement).disabled).toBe(true);
  });

  it('on start, catches up from the relay’s feed in one request after the cursor, into the inbox', async () => {
    const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    const alert = (n: number, phase: 'pending' | 'confirmed', cursor: string) => ({
      cursor,
      id: `testnet:${ME}:${tx(n)}`,
      network: 'testnet',
      principal: ME,
      txId: tx(n),
      phase,
      title: `Received ${n} STX${phase === 'pending' ? ' — pending' : ''}`,
      body: 'ST3…',
      path: `/address/${ME}#tx-${tx(n)}`,
      at: 1_000 + n,
    });
    const feed: string[] = [];
    server.use(
      http.get(`${RELAY}/v1/devices/:id/alerts`, ({ request }) => {
        feed.push(new URL(request.url).search);
        return HttpResponse.json({
          alerts: [alert(1, 'pending', '4'), alert(1, 'confirmed', '5'), alert(2, 'pending', '6')],
          next: '6',
          more: false,
        });
      }),
    );
    relayCursor = '6';
    const { store, link, stores } = await renderSettings();
    await store.identity();
    await store.enable(RELAY, '3');
    await link.start();
    expect(feed).toEqual(['?after=3']);
    expect(store.get().cursor).toBe('6');
    const one = stores.inbox.get(`testnet:${ME}:${tx(1)}`);
    expect(one).toMatchObject({ phase: 'confirmed', title: 'Received 1 STX', read: false, undelivered: false });
    // Stored, not shown: the push that carried it shows it (the service worker owns notifications while push is on).
    expect(one?.deliveries).toEqual([{ phase: 'confirmed', via: 'inbox', at: expect.any(Number) }]);
    expect(stores.inbox.get(`testnet:${ME}:${tx(2)}`)?.phase).toBe('pending');
    link.stop();
  });

  it('words what the feed tells with this device’s labels, as a push is worded, keeping the relay’s words otherwise', async () => {
    const tx = `0x${'5'.repeat(64)}`;
    const from = c32address(26, 'e5'.repeat(20));
    const facts = alertFacts({
      id: `testnet:${ME}:${tx}`,
      network: 'testnet',
      principal: ME,
      subject: tx,
      phase: 'confirmed',
      activity: {
        txId: tx,
        status: 'success',
        kind: 'token_transfer',
        counterparty: from,
        stxNet: 7_000_000n,
        fee: 180n,
        memo: null,
        contractCall: null,
        blockHeight: 9,
        time: 1,
        sender: from,
      },
      amount: null,
      at: 1,
      catchUp: false,
    });
    const relayAlert = {
      cursor: '8',
      id: `testnet:${ME}:${tx}`,
      network: 'testnet',
      principal: ME,
      txId: tx,
      phase: 'confirmed',
      title: 'Received 7.00 STX',
      body: 'ST3…\nFrom bob.btc',
      path: '/\\evil.example/login',
      at: 2,
      facts: { ...facts, names: { [from]: 'bob.btc' } },
    };
    server.use(
      http.get(`${RELAY}/v1/devices/:id/alerts`, () =>
        HttpResponse.json({ alerts: [relayAlert], next: '8', more: false }),
      ),
    );
    relayCursor = '8';
    const { store, link, stores } = await renderSettings();
    await store.identity();
    await store.enable(RELAY, '3');
    await link.start();
    expect(stores.inbox.get(relayAlert.id)).toMatchObject({
      title: 'Received 7.00 STX',
      body: 'Cold wallet\nFrom bob.btc',
      path: `/address/${ME}#tx-${tx}`,
    });
    link.stop();
  });

  it('reads the addresses again over REST when its cursor is older than the relay keeps (the answer’s gap)', async () => {
    server.use(
      http.get(`${RELAY}/v1/devices/:id/alerts`, () =>
        HttpResponse.json({
          alerts: [],
          next: '900',
          more: false,
          gap: { principals: [{ network: 'testnet', principal: ME }] },
        }),
      ),
    );
    relayCursor = '900';
    // The engine's commands, as the monitor connects them (here before it: the request waits for it).
    const { store, link } = await renderSettings();
    await store.identity();
    await store.enable(RELAY, '3');
    await link.start();
    const reconciled: string[] = [];
    const disconnect = monitorCommands.connect(
      () => undefined,
      (principal) => reconciled.push(principal),
    );
    expect(reconciled).toEqual([ME]);
    expect(store.get().cursor).toBe('900');
    disconnect();
    link.stop();
  });
});
