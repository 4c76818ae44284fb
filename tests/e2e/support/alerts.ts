import type { BrowserContext, Page, Worker } from 'playwright-core';
import type { RunningDevnet } from '../../../mocks/devnet/server.ts';
import type { InboxEntry } from '../../../src/domain/alerts/inbox.ts';
import { waitForServiceWorkerControl } from './app-page.ts';

/** What the fault tests count: the notifications on screen (as the OS has them) and the app's own alert log. */
export interface ShownNotification {
  readonly title: string;
  readonly body: string;
  readonly tag: string;
  readonly ids: readonly string[];
  readonly path: string;
}

export function notificationsShown(page: Page): Promise<ShownNotification[]> {
  return page.evaluate(`navigator.serviceWorker.ready
    .then((registration) => registration.getNotifications())
    .then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, ids: n.data?.ids ?? [], path: n.data?.path ?? '' })))`);
}

/**
 * The system notifications of `origin`, read in its service worker rather than through a page: for the tests of the
 * closed app, which hold the browser open on about:blank, with no page of the app (a page would take the alerts as
 * toasts). The newest instance of the worker: one the browser stopped is started again by the next push.
 */
export async function systemNotifications(context: BrowserContext, origin: string): Promise<ShownNotification[]> {
  return (await serviceWorkerAt(context, origin)).evaluate(`self.registration.getNotifications()
    .then((list) => list.map((n) => ({ title: n.title, body: n.body, tag: n.tag, ids: n.data?.ids ?? [], path: n.data?.path ?? '' })))`);
}

/** The windows of the app its service worker could toast in (controlled or not): none while the app is closed. */
export async function appWindows(context: BrowserContext, origin: string): Promise<string[]> {
  return (await serviceWorkerAt(context, origin)).evaluate(
    `self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((list) => list.map((client) => client.url))`,
  );
}

function serviceWorkerAt(context: BrowserContext, origin: string): Worker {
  const worker = context.serviceWorkers().findLast((candidate) => candidate.url().startsWith(`${origin}/`));
  if (!worker) throw new Error(`no service worker of ${origin} is running`);
  return worker;
}

/** What the user was shown since `recordNotifications` (see `notificationsEverShown`). */
export interface EverShown {
  /** Each notification in its last words; one the app closed is left out (it took its words back). */
  readonly notifications: readonly ShownNotification[];
  /** Every alert any notification carried at some moment, however that notification ended. */
  readonly carried: ReadonlySet<string>;
}

/**
 * Every notification the user was shown since `recordNotifications`, as the system had it: one per time a tag came
 * on screen (a later one with the same tag, shown while it is still on screen, replaces it; one shown after the first
 * left the screen is another notification: headless Chromium takes a notification away by itself after about 25 s).
 */
export async function notificationsEverShown(page: Page): Promise<EverShown> {
  const [onScreen, recorded] = await Promise.all([
    notificationsShown(page),
    readAll<ShownEvent>(page, SHOWN_LOG, 'events'),
  ]);
  const episodes: { words: ShownNotification | null }[] = [];
  const onScreenNow = new Map<string, { words: ShownNotification | null }>();
  const carried = new Set<string>();
  const place = (words: ShownNotification, replacing: boolean) => {
    for (const id of words.ids) carried.add(id);
    const episode = replacing ? onScreenNow.get(words.tag) : undefined;
    if (episode) episode.words = words;
    else {
      const fresh = { words };
      onScreenNow.set(words.tag, fresh);
      episodes.push(fresh);
    }
  };
  for (const event of recorded) {
    if (event.kind === 'show') place(event.words, event.onScreen);
    else {
      const episode = onScreenNow.get(event.tag);
      if (episode) episode.words = null;
      onScreenNow.delete(event.tag);
    }
  }
  // On screen now: its words are the latest (one shown while a restarted worker had no recorder yet counts too).
  for (const notification of onScreen) place(notification, true);
  return { notifications: episodes.flatMap((episode) => (episode.words ? [episode.words] : [])), carried };
}

const SHOWN_LOG = 'test:shown-notifications';

/** One notification shown (whether its tag was on screen then) or closed by the app, in the order it happened. */
type ShownEvent = { kind: 'show'; onScreen: boolean; words: ShownNotification } | { kind: 'close'; tag: string };

/**
 * Notes every notification the service worker shows or closes in IndexedDB (see `notificationsEverShown`): in every
 * instance of the worker, a restarted one included, so that nothing shown is lost with a worker the browser stopped.
 */
export async function recordNotifications(context: BrowserContext): Promise<void> {
  const install = (worker: Worker) =>
    worker
      .evaluate(
        `(() => {
      if (self.__recording) return;
      self.__recording = true;
      const db = new Promise((resolve, reject) => {
        const open = indexedDB.open(${JSON.stringify(SHOWN_LOG)}, 1);
        open.onupgradeneeded = () => open.result.createObjectStore('events', { autoIncrement: true });
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const note = (event) => db.then((database) => new Promise((resolve, reject) => {
        const transaction = database.transaction('events', 'readwrite');
        transaction.objectStore('events').add(event);
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
      }));
      const show = self.registration.showNotification.bind(self.registration);
      self.registration.showNotification = async (title, options = {}) => {
        const tag = options.tag ?? title;
        const onScreen = (await self.registration.getNotifications({ tag })).length > 0;
        await show(title, options);
        await note({
          kind: 'show', onScreen,
          words: { title, body: options.body ?? '', tag, ids: options.data?.ids ?? [], path: options.data?.path ?? '' },
        });
      };
      const close = Notification.prototype.close;
      Notification.prototype.close = function () {
        void note({ kind: 'close', tag: this.tag });
        return close.call(this);
      };
    })()`,
      )
      .catch(() => undefined);
  context.on('serviceworker', (worker) => void install(worker));
  for (const worker of context.serviceWorkers()) await install(worker);
}

/** The inbox records, read straight from IndexedDB (the app opened the database first). */
export const alertLog = (page: Page): Promise<InboxEntry[]> =>
  readAll<InboxEntry>(page, 'stacks-watch:inbox', 'alerts');

/** Every record of one object store of the page's origin, read straight from IndexedDB; none while it is not there. */
export function readAll<T>(page: Page, database: string, store: string): Promise<T[]> {
  return page.evaluate(
    ([database, store]) =>
      new Promise<T[]>((resolve, reject) => {
        const open = indexedDB.open(database);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(store)) {
            db.close();
            resolve([]);
            return;
          }
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => {
            db.close();
            resolve(request.result as T[]);
          };
          request.onerror = () => reject(request.error);
        };
      }),
    [database, store] as const,
  );
}

/** An alert's state in the log once it has been shown (null while it is stored but not yet shown, or absent). */
export async function shownPhase(page: Page, id: string): Promise<string | null> {
  const entry = (await alertLog(page)).find((candidate) => candidate.id === id);
  return entry && !entry.undelivered ? entry.phase : null;
}

/** A page of the app with notifications allowed and shown even while it is in front, watching these people. */
export async function openWatching(
  context: BrowserContext,
  appUrl: string,
  people: readonly { address: string; label: string }[],
): Promise<Page> {
  await context.grantPermissions(['notifications'], { origin: appUrl });
  const page = await context.newPage();
  await page.goto(appUrl);
  await waitForServiceWorkerControl(page);
  await recordNotifications(context);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByText('Notifications are on for Stacks Watch.').waitFor();
  await page.getByLabel('Show system notifications instead').check();
  await page.getByRole('link', { name: 'Stacks Watch' }).click();
  for (const person of people) {
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(person.address);
    await page.getByLabel('Label').fill(person.label);
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.getByRole('listitem').filter({ hasText: person.label }).waitFor();
  }
  // Watching means followed: each address's first sync has read what it had (its row shows its balance) and the feed
  // is live, so that what a test sends from now on is news to every address, never something a first sync met.
  for (const person of people)
    await page.getByRole('listitem').filter({ hasText: person.label }).locator('.stx-available').waitFor();
  await waitForLive(page);
  return page;
}

/** The header's connection status says live: the engine (in this tab or another) follows the node. */
export const waitForLive = (page: Page) => page.locator('.connection-live').waitFor();

/** An alert as the service worker hands one to the open app, with a body long enough to wrap on a phone. */
export const showToast = (
  page: Page,
  given: { title: string; body: string } = {
    title: 'Received 12,850.00 STX · From Vault contract',
    body: 'via demo-vault.withdraw · memo “rent for March, thanks!”',
  },
) =>
  page.evaluate(({ title, body }) => {
    const content = {
      title,
      body,
      tag: title,
      renotify: false,
      data: { ids: [title], path: '/inbox', summary: null },
    };
    navigator.serviceWorker.dispatchEvent(new MessageEvent('message', { data: { type: 'TOAST', content } }));
  }, given);

/** A small seeded generator: a failing run can be repeated. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function control(
  devnet: RunningDevnet,
  path: string,
  body: unknown = {},
): Promise<Record<string, unknown>> {
  const response = await fetch(`${devnet.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${path}: ${JSON.stringify(answer)}`);
  return answer;
}

export interface Load {
  /** Alert ids expected: `testnet:<address>:<txid>` for the sender and for the recipient of each transfer. */
  readonly expected: Set<string>;
  readonly txIds: string[];
}

/**
 * Transfers among the people, mined every few, with the devnet dropping every socket at random moments; `during`
 * starts half-way and goes on while the transfers do (a reload, a tab closing); it is awaited at the end.
 */
export async function transfersWithDrops(
  devnet: RunningDevnet,
  people: readonly { address: string }[],
  options: { transfers: number; drops: number; seed: number; during?: () => Promise<void> },
): Promise<Load> {
  const random = seeded(options.seed);
  const dropAt = new Set<number>();
  while (dropAt.size < options.drops) dropAt.add(Math.floor(random() * options.transfers));
  const expected = new Set<string>();
  const txIds: string[] = [];
  let during: Promise<void> | undefined;
  for (let index = 0; index < options.transfers; index++) {
    const from = Math.floor(random() * people.length);
    const to = (from + 1 + Math.floor(random() * (people.length - 1))) % people.length;
    const sender = people[from]!.address;
    const recipient = people[to]!.address;
    const { tx_id } = await control(devnet, '/devnet/transfer', {
      sender,
      recipient,
      amount: String(1000 + index),
      memo: `t${index}`,
    });
    const txId = String(tx_id);
    txIds.push(txId);
    expected.add(`testnet:${sender}:${txId}`);
    expected.add(`testnet:${recipient}:${txId}`);
    if (dropAt.has(index)) await control(devnet, '/devnet/faults', { disconnect: true });
    if (index % 20 === 19) await control(devnet, '/devnet/mine');
    if (index === Math.floor(options.transfers / 2)) during = options.during?.();
    await sleep(5 + random() * 20);
  }
  await during;
  while (devnet.node.chain.pending().length > 0) await control(devnet, '/devnet/mine');
  return { expected, txIds };
}

/**
 * Waits until the log holds every expected alert confirmed and shown, and nothing else arrives for a moment. On
 * failure, `explain` says where a missing alert's transaction is on the chain.
 */
export async function settledLog(
  page: Page,
  expected: ReadonlySet<string>,
  explain: (txId: string) => string = () => '',
  timeoutMs = 180_000,
): Promise<InboxEntry[]> {
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const log = await alertLog(page);
    const byId = new Map(log.map((entry) => [entry.id, entry]));
    const done = [...expected].every((id) => {
      const entry = byId.get(id);
      return entry?.phase === 'confirmed' && !entry.undelivered;
    });
    if (done && log.length === last) return log;
    last = done ? log.length : -1;
    if (Date.now() > deadline) {
      const missing = [...expected].filter((id) => byId.get(id)?.phase !== 'confirmed');
      const examples = missing.slice(0, 5).map((id) => {
        const txId = id.split(':').at(-1)!;
        return `${id} (${byId.get(id)?.phase ?? 'absent'}; ${explain(txId)})`;
      });
      const others = log.filter((entry) => !expected.has(entry.id)).map((entry) => `${entry.id}: ${entry.title}`);
      const unshown = [...expected].filter((id) => byId.get(id)?.undelivered).length;
      throw new Error(
        `${missing.length} of ${expected.size} alerts never arrived confirmed, e.g. ${examples.join(', ')}. ` +
          `The log holds ${log.length} (${unshown} stored but not yet shown); not expected: ${others.slice(0, 5).join(', ') || 'none'}`,
      );
    }
    await sleep(done ? 1500 : 500);
  }
}

/**
 * Exactly once: one log entry per expected alert and none other, no state shown twice, and each alert in exactly
 * one notification on screen (its own, or a summary's).
 */
export function countOnce(log: readonly InboxEntry[], shown: EverShown, expected: ReadonlySet<string>) {
  // Stacking locks and unlocks (the devnet's genesis stackers) are alerts too, but not the transfers counted here.
  const stacking = log.filter((entry) => entry.txId === null);
  const logIds = log.filter((entry) => entry.txId !== null).map((entry) => entry.id);
  const repeatedStates = log.filter(
    (entry) => new Set(entry.deliveries.map((delivery) => delivery.phase)).size !== entry.deliveries.length,
  );
  // Under one tag, a later notification is the same one in a later state (pending, then confirmed), also when the
  // system took the first away meanwhile: an alert counts once per tag that tells it.
  const tagsOf = new Map<string, Set<string>>();
  for (const notification of shown.notifications)
    for (const id of notification.ids) tagsOf.set(id, (tagsOf.get(id) ?? new Set()).add(notification.tag));
  const inNotifications = new Map([...tagsOf].map(([id, tags]) => [id, tags.size]));
  return {
    logEntries: logIds.length,
    stacking: stacking.map((entry) => entry.title),
    unexpected: logIds.filter((id) => !expected.has(id)),
    missingFromLog: [...expected].filter((id) => !logIds.includes(id)),
    repeatedStates: repeatedStates.map((entry) => entry.id),
    notShown: [...expected].filter((id) => !shown.carried.has(id)),
    shownTwice: [...inNotifications].filter(([, count]) => count > 1).map(([id]) => id),
    twice: shown.notifications
      .filter((notification) => notification.ids.some((id) => (inNotifications.get(id) ?? 0) > 1))
      .map((notification) => `${notification.tag}: ${notification.title} (${notification.ids.length})`),
    notifications: shown.notifications.length,
  };
}
