import type { CDPSession, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { alertFacts } from '../../src/domain/alerts/alert-facts.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import type { RelayAlert } from '../../src/domain/relay/relay-message.ts';
import { pushPayload } from '../../src/relay/push/payload.ts';
import LOOKALIKES from '../fixtures/lookalikes.json' with { type: 'json' };
import { alertLog, control, notificationsShown, openWatching, shownPhase } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { layoutReport, screenshot, SCREENSHOTS } from './support/layout.ts';
import { KEPT_FAKE_PUSH as FAKE_PUSH } from './support/fake-push.ts';
import { startRelayStandIn, type RelayStandIn } from './support/relay-stand-in.ts';
import { waitForServiceWorkerControl } from './support/app-page.ts';

/**
 * Alerts when the app is closed, in Chromium: headless Chromium cannot reach a browser vendor's push service, so
 * PushManager.subscribe is replaced in the page by a subscription at a local push service address (support/fake-push.ts), and each push
 * payload is handed to the service worker with CDP ServiceWorker.deliverPushMessage, as the push service would.
 */

/** Counts every notification the service worker shows, by tag: a duplicate shows here even when a tag replaces it. */
const COUNT_SHOWN = `(() => {
  self.__shown = [];
  const show = self.registration.showNotification.bind(self.registration);
  self.__options = [];
  self.registration.showNotification = (title, options) => {
    self.__shown.push(options.tag);
    self.__options.push({ title, tag: options.tag, silent: options.silent === true, navigate: options.navigate ?? null });
    return show(title, options);
  };
  return true;
})()`;

let relay: RelayStandIn;
let devnet: RunningDevnet;
let server: AppServer;
let browser: TestBrowser;
let page: Page;
let cdp: CDPSession;
let registrationId = '';
/** The declarative push the words test delivered, delivered again by the Safari test. */
let declarativeAgain = '';

beforeAll(async () => {
  relay = await startRelayStandIn();
  devnet = await startDevnet({ port: 0, blockMs: null });
  server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url }, relay: { url: relay.url } } });
  relay.allowOrigin(server.url);
  browser = await launchBrowser();
  await browser.context.addInitScript(FAKE_PUSH);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await devnet?.close();
  await relay?.close();
});

/** Bob's alerts of a transfer from Alice (both watched here): the tag both sides of it are shown under, told as one. */
const txTag = (txId: string) => `tx:testnet:${txId}`;
const people = () => devnet.node.chain.accounts.people.map(({ address, label }) => ({ address, label }));
const worker = (): Worker => browser.context.serviceWorkers()[0]!;
const shownTags = (): Promise<string[]> => worker().evaluate('self.__shown');
const shownOptions = (): Promise<{ title: string; tag: string; silent: boolean; navigate: string | null }[]> =>
  worker().evaluate('self.__options');
const toggle = () => page.getByRole('switch', { name: 'Send me alerts when the app is closed' });

async function deliverPush(alert: RelayAlert, data = JSON.stringify({ v: 1, alert })): Promise<void> {
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data });
}

/** Dispatches a click on the shown notification that tells `id`, as the system would. */
async function clickNotification(id: string): Promise<void> {
  await worker().evaluate(`self.registration.getNotifications().then((list) => {
    const notification = list.find((candidate) => candidate.data.ids.includes(${JSON.stringify(id)}));
    self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
  })`);
}

const relayAlert = (principal: string, txId: string, phase: RelayAlert['phase'], cursor: string): RelayAlert => ({
  cursor,
  id: `testnet:${principal}:${txId}`,
  network: 'testnet',
  principal,
  txId,
  phase,
  title: phase === 'pending' ? 'Receiving 2.5 STX — pending' : 'Received 2.5 STX',
  body: `${principal.slice(0, 5)}…`,
  path: `/address/${principal}#tx-${txId}`,
  at: Date.now(),
});

describe('alerts when the app is closed (push through the relay)', () => {
  it('turns on from Settings: relay address prefilled, push subscribed with its key, the watch list registered', async () => {
    const [alice, bob] = people();
    page = await openWatching(browser.context, server.url, [alice!, bob!]);
    await page.getByRole('link', { name: 'Settings' }).click();
    const field = page.getByLabel('Relay address');
    await expect.poll(() => field.inputValue()).toBe(relay.url);
    await shoot('off');
    await toggle().click();
    await page.getByText(/On, through .*; the relay has your current watch list\./).waitFor();
    await shoot('on');
    expect(await page.evaluate('window.__push.subscribed')).toEqual([{ userVisibleOnly: true, keyBytes: 65 }]);
    expect(relay.devices.size).toBe(1);
    const [id, device] = [...relay.devices][0]!;
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(device!.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const body = device!.body as { subscription: { endpoint: string }; watches: { principal: string }[] };
    expect(body.subscription.endpoint).toMatch(/^http:\/\/localhost:8990\/notify\//);
    expect(body.watches.map((watch) => watch.principal).sort()).toEqual([alice!.address, bob!.address].sort());
    expect(JSON.stringify(body)).not.toContain(alice!.label);

    cdp = await browser.context.newCDPSession(page);
    const registered = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const ours = registrations.find((r) => r.scopeURL === `${server.url}/` && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    registrationId = await registered;
    expect(await worker().evaluate(COUNT_SHOWN)).toBe(true);
  });

  it('a push shows one notification and lands in the inbox; the same state pushed again shows nothing', async () => {
    const bob = people()[1]!;
    const alert = relayAlert(bob.address, `0x${'0'.repeat(63)}1`, 'confirmed', '1');
    await deliverPush(alert);
    await expect.poll(() => shownPhase(page, alert.id)).toBe('confirmed');
    const shown = (await notificationsShown(page)).filter((n) => n.ids.includes(alert.id));
    expect(shown).toEqual([
      { title: alert.title, body: alert.body, tag: `tx:${alert.id}`, ids: [alert.id], path: alert.path },
    ]);
    await deliverPush(alert);
    await deliverPush({ ...alert, phase: 'pending', cursor: '2' });
    const entry = (await alertLog(page)).find((candidate) => candidate.id === alert.id)!;
    expect(entry).toMatchObject({ phase: 'confirmed', title: alert.title, read: false });
    expect(entry.deliveries.map(({ phase, via }) => `${phase}/${via}`)).toEqual(['confirmed/notification']);
    expect((await shownTags()).filter((tag) => tag === `tx:${alert.id}`)).toHaveLength(1);
    // The inbox screen shows it (the page heard the worker's write).
    await page.getByRole('link', { name: /Inbox/ }).click();
    await page.getByText(alert.title).first().waitFor();
  });

  it('one state is shown once whichever comes first, the open app or the push', async () => {
    // From an address this device does not watch: Bob's side alone, never told as a pair with the sender's.
    const [, bob, carol] = people();
    const { tx_id } = await control(devnet, '/devnet/transfer', {
      sender: carol!.address,
      recipient: bob!.address,
      amount: '2500000',
    });
    const txId = String(tx_id);
    const id = `testnet:${bob!.address}:${txId}`;
    const tag = `tx:${id}`;
    // The open app tells "pending" first; the relay's push of the same state shows nothing more.
    await expect.poll(() => shownPhase(page, id)).toBe('pending');
    await deliverPush(relayAlert(bob!.address, txId, 'pending', '3'));
    expect((await shownTags()).filter((shown) => shown === tag)).toHaveLength(1);
    // The push tells "confirmed" first; when the block reaches the open app, it shows nothing more.
    await deliverPush(relayAlert(bob!.address, txId, 'confirmed', '4'));
    await expect.poll(async () => (await shownTags()).filter((shown) => shown === tag).length).toBe(2);
    await control(devnet, '/devnet/mine');
    await expect.poll(() => ledgerPhase(page, bob!.address, txId)).toBe('confirmed');
    // The page has judged the block; an alert it stored before saving its ledger is shown (or not) before it is
    // recorded as delivered: once the entry is delivered, every notification it could cause has been asked for.
    await expect
      .poll(async () => (await alertLog(page)).find((candidate) => candidate.id === id)?.undelivered)
      .toBe(false);
    expect((await shownTags()).filter((shown) => shown === tag)).toHaveLength(2);
    const entry = (await alertLog(page)).find((candidate) => candidate.id === id)!;
    const shownStates = entry.deliveries.filter((delivery) => delivery.via === 'notification').map((d) => d.phase);
    expect(shownStates).toEqual(['pending', 'confirmed']);
  });

  it('a click on a pushed notification opens the address page at the transaction', async () => {
    const bob = people()[1]!;
    const alert = relayAlert(bob.address, `0x${'0'.repeat(63)}1`, 'confirmed', '1');
    await worker().evaluate(`self.registration.getNotifications().then((list) => {
      const notification = list.find((candidate) => candidate.data.ids.includes(${JSON.stringify(alert.id)}));
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    })`);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/address/${bob.address}`);
    expect(new URL(page.url()).hash).toBe(`#tx-${alert.txId}`);
  });

  it('a push of both sides of a transfer between watched addresses shows one notification and stores each side', async () => {
    const [alice, bob] = people();
    const txId = `0x${'0'.repeat(62)}7e`;
    const side = (principal: string, cursor: string, title: string): RelayAlert => {
      const item: AlertItem = {
        id: `testnet:${principal}:${txId}`,
        network: 'testnet',
        principal,
        subject: txId,
        phase: 'confirmed',
        activity: {
          txId,
          status: 'success',
          kind: 'token_transfer',
          counterparty: principal === bob!.address ? alice!.address : bob!.address,
          stxNet: principal === bob!.address ? 2_500_000n : -2_500_180n,
          fee: 180n,
          memo: null,
          contractCall: null,
          blockHeight: 9,
          time: 1_700_000_000,
          sender: alice!.address,
          transferAmount: 2_500_000n,
          movements: [
            {
              type: 'stx',
              assetIdentifier: 'STX',
              kind: 'transfer',
              sender: alice!.address,
              recipient: bob!.address,
              amount: 2_500_000n,
            },
          ],
        },
        amount: null,
        at: Date.now(),
        catchUp: false,
      };
      return { ...relayAlert(principal, txId, 'confirmed', cursor), title, facts: alertFacts(item) };
    };
    const sides = [side(alice!.address, '30', 'Sent 2.50 STX'), side(bob!.address, '31', 'Received 2.50 STX')];
    const tag = txTag(txId);
    // As the relay sends it: one push, `otherSides` beside its first alert.
    const payload = pushPayload(sides);
    expect(JSON.parse(payload)).toMatchObject({
      v: 1,
      alert: { id: sides[0]!.id },
      otherSides: [{ id: sides[1]!.id }],
    });
    await deliverPush(sides[0]!, payload);
    for (const { id } of sides) await expect.poll(() => shownPhase(page, id)).toBe('confirmed');
    // One notification, shown once, in the transaction's words (the labels this device gave), telling both sides.
    expect((await shownTags()).filter((shown) => shown === tag)).toHaveLength(1);
    expect((await notificationsShown(page)).filter((n) => n.tag === tag)).toEqual([
      {
        title: '2.50 STX · Alice → Bob',
        body: expect.stringContaining('Fee'),
        tag,
        ids: sides.map(({ id }) => id),
        path: `/address/${bob!.address}#tx-${txId}`,
      },
    ]);
    // Each side in the inbox under its own id, in its own words (this device's), told once by that notification.
    const log = await alertLog(page);
    for (const [index, { id }] of sides.entries()) {
      const entry = log.find((candidate) => candidate.id === id)!;
      expect(entry.title, id).toMatch([/^Sent 2\.50 STX/, /^Received 2\.50 STX/][index]!);
      expect(entry.deliveries.map(({ phase, via }) => `${phase}/${via}`)).toEqual(['confirmed/notification']);
    }
    // The same push again (a relay restarted before its told mark) shows nothing more.
    await deliverPush(sides[0]!, payload);
    await deliverPush(sides[1]!);
    const again = (await alertLog(page)).filter((entry) => sides.some(({ id }) => id === entry.id));
    expect(again.map((entry) => entry.deliveries.length)).toEqual([1, 1]);
    expect((await shownTags()).filter((shown) => shown === tag)).toHaveLength(1);
  });

  it('a declarative push reads in the user’s words, and opens the path built on the device, not the relay’s', async () => {
    const [alice, bob] = people();
    const txId = `0x${'0'.repeat(62)}2f`;
    const item: AlertItem = {
      id: `testnet:${bob!.address}:${txId}`,
      network: 'testnet',
      principal: bob!.address,
      subject: txId,
      phase: 'confirmed',
      activity: {
        txId,
        status: 'success',
        kind: 'token_transfer',
        counterparty: alice!.address,
        stxNet: 2_500_000n,
        fee: 180n,
        memo: null,
        contractCall: null,
        blockHeight: 7,
        time: 1_700_000_000,
        sender: alice!.address,
        movements: [
          {
            type: 'stx',
            assetIdentifier: 'STX',
            kind: 'transfer',
            sender: alice!.address,
            recipient: bob!.address,
            amount: 2_500_000n,
          },
        ],
      },
      amount: null,
      at: Date.now(),
      catchUp: false,
    };
    // As the relay words it (it never learns a label) and as its payload builder sends it.
    const relayWords = { title: 'Received 2.50 STX', body: `${bob!.address.slice(0, 6)}…\nFrom alice.btc` };
    const alert: RelayAlert = {
      ...relayAlert(bob!.address, txId, 'confirmed', '20'),
      ...relayWords,
      path: '/\\evil.example/login',
      facts: { ...alertFacts(item), names: { [alice!.address]: 'alice.btc' } },
    };
    const payload = pushPayload(alert, server.url);
    declarativeAgain = payload;
    expect(JSON.parse(payload)).toMatchObject({
      web_push: 8030,
      notification: { ...relayWords, navigate: `${server.url}/address/${bob!.address}#tx-${txId}` },
    });
    await deliverPush(alert, payload);
    await expect.poll(() => shownPhase(page, alert.id)).toBe('confirmed');
    // The labels the test gave the watched addresses, with the devnet's amount.
    const words = { title: 'Received 2.50 STX', body: 'Bob\nFrom Alice' };
    expect((await notificationsShown(page)).filter((n) => n.ids.includes(alert.id))).toEqual([
      { ...words, tag: txTag(txId), ids: [alert.id], path: `/address/${bob!.address}#tx-${txId}` },
    ]);
    expect((await alertLog(page)).find((entry) => entry.id === alert.id)).toMatchObject({
      ...words,
      path: `/address/${bob!.address}#tx-${txId}`,
    });
    await page.goto(`${server.url}/settings`);
    await page.getByRole('heading', { name: 'Alerts when the app is closed' }).waitFor();
    await clickNotification(alert.id);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/address/${bob!.address}`);
    expect(new URL(page.url()).hash).toBe(`#tx-${txId}`);
  });

  it('where the browser holds the declarative notification (Safari), a state already shown is re-shown quietly', async () => {
    const id = `testnet:${people()[1]!.address}:0x${'0'.repeat(62)}2f`;
    // Its notification was closed by the click above: it is shown again alone, under its own tag.
    const tag = `tx:${id}`;
    const before = (await shownTags()).filter((shown) => shown === tag).length;
    // A push event carrying the browser's proposed notification, as a declarative push's is.
    await worker().evaluate(`(() => {
      const data = ${JSON.stringify(declarativeAgain)};
      const event = new PushEvent('push', { data });
      Object.defineProperty(event, 'notification', { value: { title: 'proposed' } });
      self.dispatchEvent(event);
    })()`);
    await expect.poll(async () => (await shownTags()).filter((shown) => shown === tag).length).toBe(before + 1);
    // Counted as asked for; shown once the system has it.
    const quiet = () =>
      worker().evaluate<{ title: string; body: string; silent: boolean }[]>(
        `self.registration.getNotifications({ tag: ${JSON.stringify(tag)} }).then((list) => list.map((n) => ({ title: n.title, body: n.body, silent: n.silent })))`,
      );
    await expect.poll(quiet).toEqual([{ title: 'Received 2.50 STX', body: 'Bob\nFrom Alice', silent: true }]);
    // WebKit wants a default action on what the mutable handler shows: the path built on the device.
    expect((await shownOptions()).filter((shown) => shown.tag === tag).at(-1)).toMatchObject({
      navigate: `${server.url}/address/${people()[1]!.address}#tx-0x${'0'.repeat(62)}2f`,
    });
  });

  it('a declarative push toasted in the open app still leaves exactly one system notification, quiet, in the user’s words', async () => {
    const [alice, bob] = people();
    const txId = `0x${'0'.repeat(62)}4b`;
    const item: AlertItem = {
      id: `testnet:${bob!.address}:${txId}`,
      network: 'testnet',
      principal: bob!.address,
      subject: txId,
      phase: 'confirmed',
      activity: {
        txId,
        status: 'success',
        kind: 'token_transfer',
        counterparty: alice!.address,
        stxNet: 3_000_000n,
        fee: 180n,
        memo: null,
        contractCall: null,
        blockHeight: 8,
        time: 1_700_000_000,
        sender: alice!.address,
        movements: [
          {
            type: 'stx',
            assetIdentifier: 'STX',
            kind: 'transfer',
            sender: alice!.address,
            recipient: bob!.address,
            amount: 3_000_000n,
          },
        ],
      },
      amount: null,
      at: Date.now(),
      catchUp: false,
    };
    const alert: RelayAlert = {
      ...relayAlert(bob!.address, txId, 'confirmed', '22'),
      title: 'Received 3.00 STX',
      body: `${bob!.address.slice(0, 6)}…`,
      facts: alertFacts(item),
    };
    const tag = txTag(txId);
    // The app in front, with in-app toasts (the default): headless Chromium does not reliably report a focused
    // window to the worker, so the worker is shown one, which records what it is posted.
    await page.goto(`${server.url}/settings`);
    await page.getByLabel('Show alerts inside the app').check();
    await expect.poll(storedWhileOpen).toBe('toast');
    await worker().evaluate(`(() => {
      self.__toasts = [];
      self.__matchAll = self.clients.matchAll.bind(self.clients);
      self.clients.matchAll = async () => [{ focused: true, visibilityState: 'visible', postMessage: (message) => self.__toasts.push(message) }];
    })()`);
    try {
      await worker().evaluate(`(() => {
        const event = new PushEvent('push', { data: ${JSON.stringify(pushPayload(alert, server.url))} });
        Object.defineProperty(event, 'notification', { value: { title: ${JSON.stringify(alert.title)} } });
        self.dispatchEvent(event);
      })()`);
      await expect.poll(() => worker().evaluate<number>('self.__toasts.length')).toBe(1);
      const words = { title: 'Received 3.00 STX', body: 'Bob\nFrom Alice' };
      expect(await worker().evaluate('self.__toasts[0].content')).toMatchObject({ ...words, tag });
      await expect
        .poll(async () => (await shownOptions()).filter((shown) => shown.tag === tag))
        .toEqual([
          {
            title: words.title,
            tag,
            silent: true,
            navigate: `${server.url}/address/${bob!.address}#tx-${txId}`,
          },
        ]);
      const onScreen = () =>
        worker().evaluate<{ title: string; body: string; silent: boolean }[]>(
          `self.registration.getNotifications({ tag: ${JSON.stringify(tag)} }).then((list) => list.map((n) => ({ title: n.title, body: n.body, silent: n.silent })))`,
        );
      await expect.poll(onScreen).toEqual([{ ...words, silent: true }]);
    } finally {
      await worker().evaluate('self.clients.matchAll = self.__matchAll');
      await page.getByLabel('Show system notifications instead').check();
      await expect.poll(storedWhileOpen).toBe('system');
    }
  });

  it('a push of a lookalike’s dust warns of address poisoning, as the open app does, not "Received"', async () => {
    const [alice, bob] = people();
    // Alice's first 6 and last 4 characters, another address (tests/fixtures/lookalikes.json).
    const poisoner = LOOKALIKES.unit[alice!.address as keyof typeof LOOKALIKES.unit].address;
    const txId = `0x${'0'.repeat(62)}3a`;
    const item: AlertItem = {
      id: `testnet:${bob!.address}:${txId}`,
      network: 'testnet',
      principal: bob!.address,
      subject: txId,
      phase: 'confirmed',
      activity: {
        txId,
        status: 'success',
        kind: 'token_transfer',
        counterparty: poisoner,
        stxNet: 1n,
        fee: 180n,
        memo: null,
        contractCall: null,
        blockHeight: 9,
        time: 1_700_000_000,
        sender: poisoner,
        movements: [
          {
            type: 'stx',
            assetIdentifier: 'STX',
            kind: 'transfer',
            sender: poisoner,
            recipient: bob!.address,
            amount: 1n,
          },
        ],
      },
      amount: null,
      at: Date.now(),
      catchUp: false,
    };
    // An older relay's words, with no warning: the device judges the lookalike itself.
    const alert: RelayAlert = {
      ...relayAlert(bob!.address, txId, 'confirmed', '21'),
      title: 'Received 0.000001 STX',
      body: `${bob!.address.slice(0, 6)}…`,
      facts: alertFacts(item),
    };
    await deliverPush(alert, pushPayload(alert, server.url));
    await expect.poll(() => shownPhase(page, alert.id)).toBe('confirmed');
    const title = `Possible address-poisoning: ${alice!.address.slice(0, 6)}…${alice!.address.slice(-4)} looks like Alice`;
    const [shown] = (await notificationsShown(page)).filter((n) => n.ids.includes(alert.id));
    expect(shown?.title).toBe(title);
    expect(shown?.body).toContain(`Sent by ${poisoner}, not ${alice!.address}`);
    expect((await alertLog(page)).find((entry) => entry.id === alert.id)).toMatchObject({ title });
  });

  it('…and from a lookalike of an address a watched one sent to, read from the stored snapshots', async () => {
    const [alice, bob, carol] = people();
    const { tx_id } = await control(devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: carol!.address,
      amount: '1000000',
    });
    await control(devnet, '/devnet/mine');
    await expect.poll(() => storedSentTo(alice!.address, String(tx_id))).toBe(true);
    // Carol's first 6 and last 4 characters, another address (tests/fixtures/lookalikes.json).
    const poisoner = LOOKALIKES.devnet[carol!.address as keyof typeof LOOKALIKES.devnet].address;
    const txId = `0x${'0'.repeat(62)}5c`;
    const item: AlertItem = {
      id: `testnet:${bob!.address}:${txId}`,
      network: 'testnet',
      principal: bob!.address,
      subject: txId,
      phase: 'confirmed',
      activity: {
        txId,
        status: 'success',
        kind: 'token_transfer',
        counterparty: poisoner,
        stxNet: 1n,
        fee: 180n,
        memo: null,
        contractCall: null,
        blockHeight: 10,
        time: 1_700_000_000,
        sender: poisoner,
        movements: [
          {
            type: 'stx',
            assetIdentifier: 'STX',
            kind: 'transfer',
            sender: poisoner,
            recipient: bob!.address,
            amount: 1n,
          },
        ],
      },
      amount: null,
      at: Date.now(),
      catchUp: false,
    };
    const alert: RelayAlert = {
      ...relayAlert(bob!.address, txId, 'confirmed', '23'),
      title: 'Received 0.000001 STX',
      body: `${bob!.address.slice(0, 6)}…`,
      facts: alertFacts(item),
    };
    await deliverPush(alert, pushPayload(alert, server.url));
    await expect.poll(() => shownPhase(page, alert.id)).toBe('confirmed');
    const [shown] = (await notificationsShown(page)).filter((n) => n.ids.includes(alert.id));
    expect(shown?.title).toMatch(
      new RegExp(`^Possible address-poisoning: ${carol!.address.slice(0, 6)}…${carol!.address.slice(-4)} looks like `),
    );
    expect(shown?.body).toContain(`Sent by ${poisoner}, not ${carol!.address}`);
  });

  it.each(['/\\evil.example/login', '//evil.example/login', '/\\/evil.example', 'https://evil.example/'])(
    'a notification whose path is %j opens the app’s own page',
    async (path) => {
      await page.goto(`${server.url}/settings`);
      // The page listens to the worker once it has started (the relay section renders then too).
      await page.getByRole('heading', { name: 'Alerts when the app is closed' }).waitFor();
      const id = `testnet:${people()[1]!.address}:hostile`;
      await worker().evaluate(
        `self.registration.showNotification('Hostile', { tag: 'hostile', data: ${JSON.stringify({ ids: [id], path, summary: null })} })`,
      );
      await clickNotification(id);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/');
      expect(new URL(page.url()).origin).toBe(server.url);
    },
  );

  it('on start, catches up from the relay’s feed in one request, into the inbox without a notification', async () => {
    const bob = people()[1]!;
    const missed = relayAlert(bob.address, `0x${'0'.repeat(63)}2`, 'confirmed', '10');
    relay.feed.push(missed);
    const before = relay.requests.length;
    await page.reload();
    await waitForServiceWorkerControl(page);
    await expect
      .poll(async () => (await alertLog(page)).find((entry) => entry.id === missed.id)?.phase)
      .toBe('confirmed');
    const [id] = [...relay.devices.keys()];
    const feedRequests = relay.requests.slice(before).filter((request) => request.path.includes('/alerts'));
    expect(feedRequests.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v1/devices/${id}/alerts?after=0`,
    ]);
    const entry = (await alertLog(page)).find((candidate) => candidate.id === missed.id)!;
    expect(entry.deliveries.map(({ phase, via }) => `${phase}/${via}`)).toEqual(['confirmed/inbox']);
    expect((await notificationsShown(page)).filter((n) => n.ids.includes(missed.id))).toEqual([]);
    // The push that carried it, arriving late, is what shows it: once.
    await deliverPush(missed);
    await expect
      .poll(async () => (await notificationsShown(page)).filter((n) => n.ids.includes(missed.id)))
      .toHaveLength(1);
  });

  it('turning it off deletes the device at the relay and ends the push subscription', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    const [id] = [...relay.devices.keys()];
    await toggle().click();
    await page.getByText('Off: nothing is sent to a relay.').waitFor();
    expect(relay.requests.filter((request) => request.method === 'DELETE').map((r) => r.path)).toEqual([
      `/v1/devices/${id}`,
    ]);
    expect(relay.devices.size).toBe(0);
    expect(await page.evaluate('window.__push.unsubscribed')).toBe(1);
    expect(await page.evaluate('navigator.serviceWorker.ready.then((r) => r.pushManager.getSubscription())')).toBe(
      null,
    );
  });
});

describe('turning on where the push service never answers', () => {
  it('says so after a while and offers a retry, which turns it on once the push service answers', async () => {
    await page.goto(`${server.url}/settings`);
    await page.evaluate(`(() => {
      window.__answering = PushManager.prototype.subscribe;
      PushManager.prototype.subscribe = () => new Promise(() => undefined);
    })()`);
    await toggle().click();
    await page.getByText('Turning on…').waitFor();
    const said = page.getByRole('alert');
    await said.waitFor();
    expect(await said.textContent()).toMatch(
      /^This browser’s push service did not answer within 20 s, so it cannot deliver alerts while the app is closed yet\./,
    );
    expect(await toggle().isChecked()).toBe(false);
    await page.evaluate('PushManager.prototype.subscribe = window.__answering');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText(/On, through .*; the relay has your current watch list\./).waitFor();
    expect(relay.devices.size).toBe(1);
    await toggle().click();
    await page.getByText('Off: nothing is sent to a relay.').waitFor();
  });
});

/** How the stored alert settings say to alert while the app is in front: what the service worker reads. */
function storedWhileOpen(): Promise<string | null> {
  return worker().evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('stacks-watch:settings');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction('records').objectStore('records').get('alerts');
      request.onsuccess = () => {
        open.result.close();
        resolve(request.result?.whileOpen ?? null);
      };
      request.onerror = () => reject(request.error);
    };
  })`);
}

/** Whether the stored snapshot of `principal` (what the service worker reads) lists its transaction `txId` as done. */
function storedSentTo(principal: string, txId: string): Promise<boolean> {
  return worker().evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('stacks-watch:snapshots');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction('by-principal').objectStore('by-principal').get(${JSON.stringify(principal)});
      request.onsuccess = () => {
        open.result.close();
        const recent = request.result?.snapshot?.recent ?? [];
        resolve(recent.some((activity) => activity.txId === ${JSON.stringify(txId)} && activity.status === 'success'));
      };
      request.onerror = () => reject(request.error);
    };
  })`);
}

/** The alert ledger's state of a transaction for an address: what the open app's engine has judged. */
function ledgerPhase(page: Page, principal: string, txId: string): Promise<string | null> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('stacks-watch:alert-ledger');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      const request = db.transaction('by-address').objectStore('by-address').getAll();
      request.onsuccess = () => {
        db.close();
        const ledger = request.result.map((record) => record?.ledger).find((candidate) => candidate?.principal === ${JSON.stringify(principal)});
        resolve(ledger?.seen?.[${JSON.stringify(txId)}]?.phase ?? null);
      };
      request.onerror = () => reject(request.error);
    };
  })`);
}

/** The Settings section at phone and desktop sizes, for a person to look at; and no sideways scroll or odd switch. */
async function shoot(state: string): Promise<void> {
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    const section = page.locator('.closed-alerts');
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `${SCREENSHOTS}relay-settings-${state}-${width}.png` });
    await screenshot(page, `relay-settings-${state}-${width}-page`);
    const report = await layoutReport(page);
    expect(report.overflow).toBe(0);
    expect(report.badControls).toEqual([]);
  }
  await page.setViewportSize({ width: 412, height: 860 });
}
