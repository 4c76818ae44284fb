import { relayDataDir } from './pglite-template.ts';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PushPoster } from '../../src/relay/push/poster.ts';
import { PushSender } from '../../src/relay/push/sender.ts';
import { pushTopic } from '../../src/relay/push/payload.ts';
import {
  appendAlerts,
  markTold,
  queuedSends,
  type QueuedSend,
  type RelayAlert,
  type Urgency,
} from '../../src/relay/storage/deliveries.ts';
import { createLog } from '../../src/relay/log.ts';
import { deadLetters } from '../../src/relay/storage/dead-letters.ts';
import { deleteDevice, findDevice, putDevice } from '../../src/relay/storage/devices.ts';
import { migrate } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import type { tempDir } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

const B = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const C = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:relay@example.org' };
const keys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};
const alert = (id: string, phase: 'pending' | 'confirmed'): Omit<RelayAlert, 'cursor'> => ({
  id,
  network: 'testnet',
  principal: B,
  txId: null,
  phase,
  title: 't',
  body: 'b',
  path: `/address/${B}`,
  // Learned now: a state is worth retrying for its TTL from when it was learned.
  at: Date.now(),
});

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => postgres?.stop());

let db: Database;
async function openWithDevices(kind: 'pglite' | 'postgres', dir: string): Promise<Database> {
  const opened = await openDatabase(kind === 'pglite' ? { dataDir: dir } : { url: postgres.url });
  await migrate(opened);
  await putDevices(opened);
  return opened;
}

/** The two devices, one on each push service (again, after a test had one forgotten). */
async function putDevices(into: Database): Promise<void> {
  for (const [id, origin] of [
    ['device-fcm-aaaaaaaaaaaaaa', 'https://fcm.googleapis.com'],
    ['device-moz-aaaaaaaaaaaaaa', 'https://updates.push.services.mozilla.com'],
  ] as const)
    await into.transaction((sql) =>
      putDevice(
        sql,
        {
          id,
          secretHash: 'h',
          subscription: { endpoint: `${origin}/x/${id}`, expirationTime: null, keys },
          watches: [],
        },
        1,
      ),
    );
}

/** A push service that answers each request with the next status given (201 once they run out), or when told. */
function pushService(statuses: (number | Promise<number>)[] = []) {
  const seen: { url: string; headers: Record<string, string>; alert: string }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    seen.push({ url, headers, alert: topics.get(headers['Topic']!) ?? '?' });
    return new Response(null, { status: await (statuses.shift() ?? 201), headers: { 'retry-after': '0' } });
  }) as typeof globalThis.fetch;
  return { seen, fetch };
}

/** Which alert each Topic names (the push carries only the opaque Topic in the clear). */
const topics = new Map<string, string>();

function gate(): { answer: Promise<number>; open(status: number): void } {
  let open: (status: number) => void = () => undefined;
  const answer = new Promise<number>((resolve) => (open = resolve));
  return { answer, open };
}

/** Polls until `check` passes: a retry's backoff runs on real timers, and the test waits for its outcome, not a time. */
const eventually = (check: () => void | Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 5 });

async function queue(
  given: { deviceId: string; alert: Omit<RelayAlert, 'cursor'>; urgency?: Urgency }[],
): Promise<QueuedSend[]> {
  for (const { deviceId, alert } of given) topics.set(pushTopic(deviceId, alert.id), `${alert.id} ${alert.phase}`);
  const stored = await db.transaction((sql) =>
    appendAlerts(
      sql,
      given.map((item) => ({ ...item, urgency: item.urgency ?? 'normal' })),
    ),
  );
  return stored.map((alert, index) => ({
    deviceId: given[index]!.deviceId,
    cursor: Number(alert!.cursor),
    tries: 0,
    urgency: given[index]!.urgency ?? 'normal',
    alert: alert!,
    notBefore: 0,
  }));
}

for (const kind of ['pglite', 'postgres'] as const)
  describe(`the push sender on ${kind}`, () => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    beforeAll(async () => {
      dir = await relayDataDir('relay-sender-');
      db = await openWithDevices(kind, dir.path);
    });
    afterAll(async () => {
      await db?.close();
      await dir?.remove();
    });

    it('signs one VAPID token per push service, sends only the newest state of an alert, and marks them told', async () => {
      const service = pushService();
      const sender = new PushSender({ db, vapid, forgotten: async () => undefined, fetch: service.fetch });
      await sender.start();
      sender.enqueue(
        await queue([
          { deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('a', 'pending') },
          { deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('a', 'confirmed') },
          { deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('b', 'confirmed') },
          { deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('a', 'confirmed') },
          { deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('c', 'confirmed') },
        ]),
      );
      await sender.idle();
      expect(service.seen).toHaveLength(4);
      const tokens = new Map<string, Set<string>>();
      for (const { url, headers } of service.seen) {
        const origin = new URL(url).origin;
        tokens.set(origin, (tokens.get(origin) ?? new Set()).add(headers['Authorization']!));
        // A day from when the relay learned the state, less the moments since.
        expect(Number(headers['TTL'])).toBeGreaterThan(86_400 - 60);
        expect(Number(headers['TTL'])).toBeLessThanOrEqual(86_400);
        expect(headers['Topic']).toMatch(/^[A-Za-z0-9_-]{32}$/);
      }
      expect([...tokens.values()].map((set) => set.size)).toEqual([1, 1]);
      const jwt = /^vapid t=([^,]+), k=/.exec([...tokens.get('https://fcm.googleapis.com')!][0]!)?.[1] ?? '';
      const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as {
        aud: string;
        exp: number;
      };
      expect(claims.aud).toBe('https://fcm.googleapis.com');
      expect(claims.exp - Date.now() / 1000).toBeGreaterThan(11 * 3600);
      expect(await queuedSends(db)).toEqual([]);
      sender.stop();
    });

    it('a push left unanswered that the service takes late, after the next state of its alert: that state is pushed once more, to be the last the service keeps', async () => {
      // A loaded push service: the pending state's push gets no answer within the deadline, yet the service takes
      // it later, after the confirmed state (it read both once it woke; the Topic keeps the last one taken).
      const taken: string[] = [];
      let late: string | null = null;
      const confirmedStored = gate();
      const poster: PushPoster = {
        post: async (job) => {
          const state = `${job.alerts[0].id} ${job.alerts[0].phase}`;
          if (job.alerts[0].phase === 'pending' && late === null) {
            late = state;
            // Its deadline passes once the confirmed state is stored (and waits for this push to be answered).
            await confirmedStored.answer;
            return { status: 0, retryAfter: null };
          }
          taken.push(state);
          if (late !== null && !taken.includes(late)) taken.push(late);
          return { status: 201, retryAfter: null };
        },
        close: async () => undefined,
      };
      const sender = new PushSender({ db, vapid, forgotten: async () => undefined, poster, retry: { backoffMs: 10 } });
      await sender.start();
      sender.enqueue(await queue([{ deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('late', 'pending') }]));
      await eventually(() => expect(late).toBe('late pending'));
      sender.enqueue(await queue([{ deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('late', 'confirmed') }]));
      confirmedStored.open(0);
      await eventually(async () => expect(await queuedSends(db)).toEqual([]));
      await sender.idle();
      expect(taken).toEqual(['late confirmed', 'late pending', 'late confirmed']);
      expect(sender.answers.get('unreachable'), 'one push unanswered, one repeat').toBe(1);
      sender.stop();
    });

    it('takes up what a stopped sender left queued; a 5xx is retried, a 410 forgets the device', async () => {
      await queue([{ deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('d', 'confirmed') }]);
      await queue([{ deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('e', 'confirmed') }]);
      const service = pushService([503, 410]);
      const forgotten: string[] = [];
      const sender = new PushSender({
        db,
        vapid,
        forgotten: async (id) => void forgotten.push(id),
        fetch: service.fetch,
        retry: { backoffMs: 10 },
      });
      await sender.start();
      // The 503 is retried after a backoff of at most 10 ms.
      await eventually(() => expect(service.seen).toHaveLength(3));
      await sender.idle();
      expect(service.seen.map(({ url }) => new URL(url).hostname)).toEqual([
        'updates.push.services.mozilla.com',
        'fcm.googleapis.com',
        'updates.push.services.mozilla.com',
      ]);
      expect(forgotten).toEqual(['device-fcm-aaaaaaaaaaaaaa']);
      expect(await findDevice(db, 'device-fcm-aaaaaaaaaaaaaa')).toBeUndefined();
      expect(await queuedSends(db)).toEqual([]);
      sender.stop();
    });

    it('a 410 for an endpoint the device replaced while the push was in flight keeps the device and its new endpoint', async () => {
      await putDevices(db);
      const id = 'device-fcm-aaaaaaaaaaaaaa';
      const old = (await findDevice(db, id))!.subscription;
      const renewed = { ...old, endpoint: `${old.endpoint}-renewed` };
      const posted: string[] = [];
      const fetch = (async (url: string) => {
        posted.push(url);
        if (url !== old.endpoint) return new Response(null, { status: 201 });
        // The browser subscribed anew and the app's PUT stored it before the old endpoint's push was answered.
        await db.transaction((sql) => putDevice(sql, { id, secretHash: 'h', subscription: renewed, watches: [] }, 2));
        return new Response(null, { status: 410 });
      }) as typeof globalThis.fetch;
      const forgotten: string[] = [];
      const sender = new PushSender({ db, vapid, forgotten: async (gone) => void forgotten.push(gone), fetch });
      await sender.start();
      sender.enqueue(await queue([{ deviceId: id, alert: alert('renewed', 'confirmed') }]));
      // The state is sent again, to the endpoint the device has now.
      await eventually(() => expect(posted).toEqual([old.endpoint, renewed.endpoint]));
      await sender.idle();
      expect((await findDevice(db, id))?.subscription.endpoint).toBe(renewed.endpoint);
      expect(forgotten).toEqual([]);
      expect(await queuedSends(db)).toEqual([]);
      sender.stop();
      await putDevices(db);
    });

    it('sends confirmed incoming transfers ahead of pending states queued before them', async () => {
      await putDevices(db);
      const service = pushService();
      const sender = new PushSender({
        db,
        vapid,
        forgotten: async () => undefined,
        fetch: service.fetch,
        concurrency: 1,
      });
      await sender.start();
      sender.enqueue(
        await queue([
          { deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('f', 'pending') },
          { deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('g', 'pending') },
          { deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('h', 'confirmed'), urgency: 'high' },
          { deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('i', 'confirmed') },
          { deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('j', 'confirmed'), urgency: 'high' },
        ]),
      );
      await sender.idle();
      expect(service.seen.map((seen) => seen.alert)).toEqual([
        'h confirmed',
        'j confirmed',
        'f pending',
        'g pending',
        'i confirmed',
      ]);
      expect(service.seen.map((seen) => seen.headers['Urgency'])).toEqual([
        'high',
        'high',
        'normal',
        'normal',
        'normal',
      ]);
      sender.stop();
    });

    it('never has two states of one alert in flight: a confirmation waits for its pending state to be answered', async () => {
      const pendingAnswer = gate();
      const service = pushService([pendingAnswer.answer]);
      const sender = new PushSender({
        db,
        vapid,
        forgotten: async () => undefined,
        fetch: service.fetch,
        retry: { backoffMs: 10 },
      });
      await sender.start();
      const alerts = () => service.seen.map((seen) => seen.alert);
      sender.enqueue(await queue([{ deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('k', 'pending') }]));
      await eventually(() => expect(alerts()).toEqual(['k pending']));
      sender.enqueue(
        await queue([
          { deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('k', 'confirmed'), urgency: 'high' },
          { deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('l', 'confirmed'), urgency: 'high' },
        ]),
      );
      // The other alert's confirmation leaves; this alert's waits for the push service's answer to its pending state
      // (it was set aside before the other left: the queue hands states over in order).
      await eventually(() => expect(alerts()).toContain('l confirmed'));
      expect(alerts()).toEqual(['k pending', 'l confirmed']);
      // The pending state fails (503): it is not tried again after its confirmation, in memory or after a restart.
      pendingAnswer.open(503);
      await eventually(() => expect(alerts()).toContain('k confirmed'));
      // The pending state's retry is due within 10 ms; a later state of the same device, due after it and in the
      // same lane, leaves behind it: once that one is seen, the retry had its turn and was dropped.
      const [behind] = await queue([{ deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('r', 'pending') }]);
      sender.enqueue([{ ...behind!, notBefore: Date.now() + 50 }]);
      await eventually(() => expect(alerts()).toContain('r pending'));
      await sender.idle();
      expect(alerts()).toEqual(['k pending', 'l confirmed', 'k confirmed', 'r pending']);
      expect(await queuedSends(db)).toEqual([]);
      sender.stop();
    });

    it('writes told marks again when the database refused them, rather than leaving them to be sent twice', async () => {
      let refusals = 2;
      const flaky: Database = {
        ...db,
        query: (text, params) =>
          text.includes("status = 'told'") && refusals-- > 0
            ? Promise.reject(new Error('the connection was lost'))
            : db.query(text, params),
        // The told marks are written on the alert path: there too.
        within: () => flaky,
      };
      const lines: string[] = [];
      const sender = new PushSender({
        db: flaky,
        vapid,
        forgotten: async () => undefined,
        fetch: pushService().fetch,
        retry: { backoffMs: 10 },
        log: createLog({ write: (line) => lines.push(line) }),
      });
      await sender.start();
      sender.enqueue(await queue([{ deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('q', 'confirmed') }]));
      await sender.idle();
      sender.stop();
      expect(refusals).toBeLessThan(0);
      expect(await queuedSends(db)).toEqual([]);
      expect(lines.map((line) => (JSON.parse(line) as { event: string }).event)).toEqual(['told marks not stored']);
    });

    it('honours Retry-After, in seconds or as an HTTP date, on a 503 and a 429', async () => {
      const clock = Date.now();
      const answers = [
        { status: 503, retryAfter: '120' },
        { status: 429, retryAfter: new Date(clock + 300_000).toUTCString() },
      ];
      const fetch = (async () => {
        const { status, retryAfter } = answers.shift()!;
        return new Response(null, { status, headers: { 'retry-after': retryAfter } });
      }) as unknown as typeof globalThis.fetch;
      const sender = new PushSender({
        db,
        vapid,
        forgotten: async () => undefined,
        fetch,
        now: () => clock,
        retry: { backoffMs: 10 },
      });
      await sender.start();
      sender.enqueue(
        await queue([
          { deviceId: 'device-fcm-aaaaaaaaaaaaaa', alert: alert('m', 'confirmed') },
          { deviceId: 'device-moz-aaaaaaaaaaaaaa', alert: alert('n', 'confirmed') },
        ]),
      );
      await sender.idle();
      sender.stop();
      const waiting = await queuedSends(db);
      expect(waiting.map((send) => [send.alert.id, send.tries])).toEqual([
        ['m', 1],
        ['n', 1],
      ]);
      // Not before the service said, whatever the backoff (10 ms here) would have chosen.
      expect(waiting[0]!.notBefore).toBeGreaterThanOrEqual(clock + 120_000);
      expect(waiting[1]!.notBefore).toBeGreaterThanOrEqual(clock + 299_000);
      await markTold(db, waiting, clock);
    });

    it('gives up, to the dead-letter list, a push whose keys cannot encrypt or whose endpoint the policy now refuses', async () => {
      const unusable = 'device-keys-aaaaaaaaaaaaa';
      const standIn = 'device-stand-in-aaaaaaaaa';
      for (const [id, endpoint, p256dh] of [
        [unusable, 'https://fcm.googleapis.com/x/keys', `B${'A'.repeat(86)}`],
        // Registered while the relay allowed a local stand-in, which it no longer does.
        [standIn, 'http://localhost:8990/notify/abc', keys.p256dh],
      ] as const)
        await db.transaction((sql) =>
          putDevice(
            sql,
            {
              id,
              secretHash: 'h',
              subscription: { endpoint, expirationTime: null, keys: { ...keys, p256dh } },
              watches: [],
            },
            1,
          ),
        );
      const service = pushService();
      const lines: string[] = [];
      const sender = new PushSender({
        db,
        vapid,
        forgotten: async () => undefined,
        fetch: service.fetch,
        log: createLog({ write: (line) => lines.push(line) }),
      });
      await sender.start();
      sender.enqueue(
        await queue([
          { deviceId: unusable, alert: alert('o', 'confirmed') },
          { deviceId: standIn, alert: alert('p', 'confirmed') },
        ]),
      );
      await sender.idle();
      sender.stop();
      expect(service.seen).toEqual([]);
      expect(await queuedSends(db)).toEqual([]);
      const { letters } = await deadLetters(db);
      // Listed by when each was given up: the two can fall in different milliseconds, either first.
      const given = letters.map((letter) => [letter.deviceId, letter.answer?.split(':')[0]]);
      expect(given.sort()).toEqual([
        [unusable, 'unusable keys'],
        [standIn, 'endpoint refused'],
      ]);
      const events = lines.map((line) => JSON.parse(line) as { event: string; origin?: string });
      expect(events).toContainEqual(
        expect.objectContaining({ event: 'devices on a refused push service', origin: 'http://localhost:8990' }),
      );
      expect(events).toContainEqual(expect.objectContaining({ event: 'push keys unusable' }));
      for (const id of [unusable, standIn]) await deleteDevice(db, id);
    });

    it('tells a device’s sides of one transaction in one push, retried together, each side’s row told once', async () => {
      const pushed: string[][] = [];
      const statuses = [503];
      const poster: PushPoster = {
        post: async (job) => {
          pushed.push(job.alerts.map((side) => `${job.deviceId.slice(7, 10)} ${side.principal.slice(0, 3)}`));
          return { status: statuses.shift() ?? 201, retryAfter: null };
        },
        close: async () => undefined,
      };
      const sender = new PushSender({ db, vapid, forgotten: async () => undefined, poster, retry: { backoffMs: 5 } });
      await sender.start();
      const txId = `0x${'e1'.repeat(32)}`;
      const side = (principal: string): Omit<RelayAlert, 'cursor'> => ({
        ...alert(`testnet:${principal}:${txId}`, 'confirmed'),
        principal,
        txId,
      });
      const [fcm, moz] = ['device-fcm-aaaaaaaaaaaaaa', 'device-moz-aaaaaaaaaaaaaa'];
      const stored = await queue([
        { deviceId: fcm, alert: side(B) },
        // Its incoming side, in the other lane: the push leaves with the first of its sides.
        { deviceId: fcm, alert: side(C), urgency: 'high' },
        // Another device's side of the same transaction: a push of its own.
        { deviceId: moz, alert: side(C) },
      ]);
      sender.enqueue(stored);
      await eventually(() => expect(pushed).toHaveLength(3));
      await sender.idle();
      sender.stop();
      // Refused once (503), then accepted: the same two sides each time, the incoming one (high) leading.
      expect(pushed.filter((sides) => sides[0]!.startsWith('fcm'))).toEqual([
        ['fcm ST1', 'fcm ST2'],
        ['fcm ST1', 'fcm ST2'],
      ]);
      expect(pushed.filter((sides) => sides[0]!.startsWith('moz'))).toEqual([['moz ST1']]);
      const rows = await db.query<{ device_id: string; status: string; tries: number }>(
        `SELECT device_id, status, tries FROM deliveries WHERE alert_id LIKE $1 ORDER BY device_id, cursor`,
        [`%:${txId}`],
      );
      expect(rows.map((row) => `${row.device_id.slice(7, 10)} ${row.status} ${Number(row.tries)}`)).toEqual([
        'fcm told 1',
        'fcm told 1',
        'moz told 0',
      ]);
    });

    it('counts each side of a push left unanswered: the service took it late, and every side reaches the device twice', async () => {
      // A loaded push service: the push of a transfer's two sides gets no answer within the deadline, yet the service
      // takes it (and later its retry): two states repeated for one push unanswered.
      const taken: string[][] = [];
      const poster: PushPoster = {
        post: async (job) => {
          taken.push(job.alerts.map((side) => side.principal.slice(0, 3)).sort());
          return { status: taken.length === 1 ? 0 : 201, retryAfter: null };
        },
        close: async () => undefined,
      };
      const sender = new PushSender({ db, vapid, forgotten: async () => undefined, poster, retry: { backoffMs: 5 } });
      await sender.start();
      const txId = `0x${'e2'.repeat(32)}`;
      const side = (principal: string): Omit<RelayAlert, 'cursor'> => ({
        ...alert(`testnet:${principal}:${txId}`, 'confirmed'),
        principal,
        txId,
      });
      const fcm = 'device-fcm-aaaaaaaaaaaaaa';
      sender.enqueue(
        await queue([
          { deviceId: fcm, alert: side(B) },
          { deviceId: fcm, alert: side(C) },
        ]),
      );
      await eventually(async () => expect(await queuedSends(db)).toEqual([]));
      await sender.idle();
      sender.stop();
      expect(taken).toEqual([
        ['ST1', 'ST2'],
        ['ST1', 'ST2'],
      ]);
      expect(sender.answers.get('unreachable'), 'one push unanswered').toBe(1);
      expect(sender.unansweredStates, 'two states that may reach the device twice').toBe(2);
    });
  });
