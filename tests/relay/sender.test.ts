import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PushSender } from '../../src/relay/push/sender.ts';
import { appendAlerts, queuedSends, type QueuedSend, type RelayAlert } from '../../src/relay/storage/deliveries.ts';
import { findDevice, putDevice } from '../../src/relay/storage/devices.ts';
import { migrate } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import { tempDir } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

const B = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
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
  at: 1,
});

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => postgres?.stop());

let db: Database;
async function openWithDevices(kind: 'pglite' | 'postgres', dir: string): Promise<Database> {
  const opened = await openDatabase(kind === 'pglite' ? { dataDir: dir } : { url: postgres.url });
  await migrate(opened);
  for (const [id, origin] of [
    ['device-fcm-aaaaaaaaaaaaaa', 'https://fcm.googleapis.com'],
    ['device-moz-aaaaaaaaaaaaaa', 'https://updates.push.services.mozilla.com'],
  ] as const)
    await opened.transaction((sql) =>
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
  return opened;
}

/** A push service that answers each request with the next status given (201 once they run out). */
function pushService(statuses: number[] = []) {
  const seen: { url: string; headers: Record<string, string> }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, headers: init.headers as Record<string, string> });
    return new Response(null, { status: statuses.shift() ?? 201, headers: { 'retry-after': '0' } });
  }) as typeof globalThis.fetch;
  return { seen, fetch };
}

async function queue(given: { deviceId: string; alert: Omit<RelayAlert, 'cursor'> }[]): Promise<QueuedSend[]> {
  const stored = await db.transaction((sql) =>
    appendAlerts(
      sql,
      given.map((item) => ({ ...item, urgency: 'normal' as const })),
    ),
  );
  return stored.map((alert, index) => ({
    deviceId: given[index]!.deviceId,
    cursor: Number(alert!.cursor),
    tries: 0,
    urgency: 'normal',
    alert: alert!,
    notBefore: 0,
  }));
}

for (const kind of ['pglite', 'postgres'] as const)
  describe(`the push sender on ${kind}`, () => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    beforeAll(async () => {
      dir = await tempDir('relay-sender-');
      db = await openWithDevices(kind, dir.path);
    }, 60_000);
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
        expect(headers['TTL']).toBe('86400');
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
        backoffMs: 10,
      });
      await sender.start();
      await sender.idle();
      await new Promise((resolve) => setTimeout(resolve, 100));
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
  });
