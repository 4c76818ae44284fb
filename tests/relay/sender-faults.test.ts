import { relayDataDir } from './pglite-template.ts';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '../../src/relay/log.ts';
import { PushSender } from '../../src/relay/push/sender.ts';
import { ThreadPoster } from '../../src/relay/push/thread-poster.ts';
import { deadLetters } from '../../src/relay/storage/dead-letters.ts';
import { appendAlerts, queuedSends, type QueuedSend } from '../../src/relay/storage/deliveries.ts';
import { putDevice } from '../../src/relay/storage/devices.ts';
import { migrate } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import type { tempDir } from './harness.ts';
import { eventually, random } from './harness.ts';

/** The sender when things around it fail: a push service down past every state's lifetime, push threads gone. */
const B = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:relay@example.org' };
const keys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};
const BROKEN_WORKER = new URL('./broken-push-worker.ts', import.meta.url).href;

let db: Database;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await relayDataDir('relay-sender-faults-');
  db = await openDatabase({ dataDir: dir.path });
  await migrate(db);
});
afterAll(async () => {
  await db?.close();
  await dir?.remove();
});

/** `count` new devices on one push service (the sender told, as the API does), each with one confirmed alert queued. */
async function devicesWithAlerts(count: number, sender: PushSender, learnedAt = Date.now()): Promise<QueuedSend[]> {
  const ids = Array.from({ length: count }, () => `device-${random(20)}`);
  const alerts = await db.transaction(async (sql) => {
    for (const id of ids) {
      const subscription = { endpoint: `https://fcm.googleapis.com/x/${id}`, expirationTime: null, keys };
      await putDevice(sql, { id, secretHash: 'h', subscription, watches: [] }, 1);
      sender.subscribed(id, subscription);
    }
    return appendAlerts(
      sql,
      ids.map((deviceId) => ({
        deviceId,
        urgency: 'normal' as const,
        alert: {
          id: random(8),
          network: 'testnet',
          principal: B,
          txId: null,
          phase: 'confirmed' as const,
          title: 't',
          body: 'b',
          path: `/address/${B}`,
          at: learnedAt,
        },
      })),
    );
  });
  return alerts.map((alert, index) => ({
    deviceId: ids[index]!,
    cursor: Number(alert!.cursor),
    tries: 0,
    urgency: 'normal' as const,
    alert: alert!,
    notBefore: 0,
  }));
}

/**
 * One new device watching several sides of one transaction, each side's pending state queued (the sender told of the
 * device): sides stored in different writes, or one re-driven, were learned at different times and tried apart.
 */
async function sidesOfOneTransaction(
  sender: PushSender,
  sides: readonly { readonly principal: string; readonly learnedAt: number; readonly tries: number }[],
  phase: 'pending' | 'confirmed' = 'pending',
): Promise<QueuedSend[]> {
  const id = `device-${random(20)}`;
  const txId = `0x${'ab'.repeat(32)}`;
  const alerts = await db.transaction(async (sql) => {
    const subscription = { endpoint: `https://fcm.googleapis.com/x/${id}`, expirationTime: null, keys };
    await putDevice(sql, { id, secretHash: 'h', subscription, watches: [] }, 1);
    sender.subscribed(id, subscription);
    return appendAlerts(
      sql,
      sides.map(({ principal, learnedAt }) => ({
        deviceId: id,
        urgency: 'normal' as const,
        alert: {
          id: `testnet:${principal}:${txId}`,
          network: 'testnet',
          principal,
          txId,
          phase,
          title: 't',
          body: 'b',
          path: `/address/${principal}`,
          at: learnedAt,
        },
      })),
    );
  });
  return alerts.map((alert, index) => ({
    deviceId: id,
    cursor: Number(alert!.cursor),
    tries: sides[index]!.tries,
    urgency: 'normal' as const,
    alert: alert!,
    notBefore: 0,
  }));
}

describe('the push sender under faults', () => {
  it('logs an outage past the lifetime over many devices in a bounded number of lines, per device on the dead-letter list', async () => {
    const devices = 40;
    const lines: string[] = [];
    const log = createLog({ write: (line) => lines.push(line) });
    const sender = new PushSender({
      db,
      vapid,
      forgotten: async () => undefined,
      fetch: (async () => new Response(null, { status: 503 })) as unknown as typeof fetch,
      retry: { backoffMs: 5, maxBackoffMs: 20, lifetimeMs: () => 150 },
      log,
    });
    await sender.start();
    const sends = await devicesWithAlerts(devices, sender);
    sender.enqueue(sends);
    await eventually('every push to be given up', async () => (sender.givenUp === devices ? true : undefined));
    await sender.idle();
    sender.stop();
    log.flush();
    const events = lines.map((line) => JSON.parse(line) as { event: string; repeats?: number });
    const givenUp = events.filter((line) => line.event === 'push given up');
    // The first at once, the rest counted in one line when the window closes (here at the flush).
    expect(givenUp).toHaveLength(2);
    expect(givenUp[1]?.repeats).toBe(devices - 1);
    expect(lines.length).toBeLessThanOrEqual(6);
    const { letters } = await deadLetters(db);
    const mine = new Set(sends.map((send) => send.deviceId));
    expect(letters.filter((letter) => mine.has(letter.deviceId))).toHaveLength(devices);
  });

  it('neither counts nor logs as given up a state superseded while it was in flight', async () => {
    const lines: string[] = [];
    let answer: (status: number) => void = () => undefined;
    let inFlight = false;
    const sender = new PushSender({
      db,
      vapid,
      forgotten: async () => undefined,
      fetch: (() =>
        new Promise<number>((resolve) => {
          answer = resolve;
          inFlight = true;
        }).then((status) => new Response(null, { status }))) as unknown as typeof fetch,
      log: createLog({ write: (line) => lines.push(line) }),
    });
    await sender.start();
    const before = sender.givenUp;
    const [send] = await devicesWithAlerts(1, sender);
    sender.enqueue([send!]);
    await eventually('the push to be in flight', async () => (inFlight ? true : undefined));
    // Its successor arrived meanwhile: the state in flight is superseded in the table.
    await db.query(`UPDATE deliveries SET status = 'superseded' WHERE device_id = $1 AND cursor = $2`, [
      send!.deviceId,
      send!.cursor,
    ]);
    answer(400);
    await eventually('the answer to be handled', async () => (sender.answers.get('400') ? true : undefined));
    await sender.idle();
    sender.stop();
    expect(sender.givenUp).toBe(before);
    expect(lines.filter((line) => line.includes('push given up'))).toEqual([]);
  });

  it('retries, never dead-letters as unusable keys, while no push thread runs, and starts another thread', async () => {
    const problems: string[] = [];
    const poster = await ThreadPoster.start(1, (problem) => problems.push(problem), BROKEN_WORKER);
    try {
      const sender = new PushSender({
        db,
        vapid,
        poster,
        forgotten: async () => undefined,
        retry: { backoffMs: 20, maxBackoffMs: 40 },
      });
      await sender.start();
      const [send] = await devicesWithAlerts(1, sender);
      // The running thread dies on the push; the one started in its place cannot load: none runs.
      process.env['BROKEN_PUSH_WORKER'] = '1';
      sender.enqueue([send!]);
      await eventually('the replacement to fail to start', async () =>
        problems.some((problem) => /before it was ready; another is started in/.test(problem)) ? true : undefined,
      );
      await eventually('the push to be tried while no thread runs', async () =>
        (sender.answers.get('unreachable') ?? 0) >= 2 ? true : undefined,
      );
      sender.stop();
      await sender.idle();
      const { letters } = await deadLetters(db);
      expect(letters.filter((letter) => letter.deviceId === send!.deviceId)).toEqual([]);
      expect((await queuedSends(db)).map((queued) => queued.cursor)).toContain(send!.cursor);
      // Loadable again: a thread is started after the pause.
      delete process.env['BROKEN_PUSH_WORKER'];
      const reported = problems.length;
      await eventually('another thread to start', async () => {
        const outcome = await poster.post({} as never);
        return outcome.status === 0 && problems.length > reported ? true : undefined;
      });
    } finally {
      delete process.env['BROKEN_PUSH_WORKER'];
      await poster.close();
    }
  });

  it('asks the push service to keep a late push only for what is left of its lifetime, not a fresh day', async () => {
    const ttls = new Map<string, number>();
    const sender = new PushSender({
      db,
      vapid,
      forgotten: async () => undefined,
      fetch: (async (url: string, init: RequestInit) => {
        ttls.set(url, Number((init.headers as Record<string, string>)['TTL']));
        return new Response(null, { status: 201 });
      }) as unknown as typeof fetch,
    });
    await sender.start();
    // Learned 20 hours ago (the push service was down since): a confirmed state lives 24 h.
    const [send] = await devicesWithAlerts(1, sender, Date.now() - 20 * 3_600_000);
    sender.enqueue([send!]);
    const endpoint = `https://fcm.googleapis.com/x/${send!.deviceId}`;
    const ttl = await eventually('the push to be sent', async () => ttls.get(endpoint));
    await sender.idle();
    sender.stop();
    expect(ttl).toBeGreaterThan(4 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(4 * 3600);
  });

  it('retries each side of a failed push within its own lifetime: a shared retry time is not kept past a side’s end', async () => {
    const HOUR = 3_600_000;
    const posted: string[] = [];
    const sender = new PushSender({
      db,
      vapid,
      forgotten: async () => undefined,
      fetch: (async (url: string) => {
        posted.push(url);
        return new Response(null, { status: 503 });
      }) as unknown as typeof fetch,
      // No jitter: the first retry waits 20 s, the second 40 s.
      retry: { backoffMs: 20_000, maxBackoffMs: 60_000, random: () => 1 },
    });
    await sender.start();
    const start = Date.now();
    // A pending state lives an hour. Bob's side was learned 59.5 minutes ago: its next try (20 s) is within its last
    // 30 s. Carol's was learned now but failed once already: hers waits 40 s, past Bob's end.
    const [bob, carol] = await sidesOfOneTransaction(sender, [
      { principal: B, learnedAt: start - HOUR + 30_000, tries: 0 },
      { principal: 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM', learnedAt: start, tries: 1 },
    ]);
    sender.enqueue([bob!, carol!]);
    const rows = await eventually('both sides to be retried', async () => {
      const found = await db.query<{ cursor: number; status: string; next_try_at: number; tries: number }>(
        'SELECT cursor, status, next_try_at, tries FROM deliveries WHERE device_id = $1 ORDER BY cursor',
        [bob!.deviceId],
      );
      return found.every((row) => Number(row.tries) === 1) ? found : undefined;
    });
    await sender.idle();
    sender.stop();
    expect(posted).toHaveLength(1);
    const [bobRow, carolRow] = rows;
    // Both still alive: both retried, neither given up; Bob's within his lifetime (alone, then), Carol's at her time.
    expect(rows.map((row) => row.status)).toEqual(['queued', 'queued']);
    expect(Number(bobRow!.next_try_at)).toBeLessThanOrEqual(bob!.alert.at + HOUR);
    expect(Number(carolRow!.next_try_at)).toBeGreaterThan(bob!.alert.at + HOUR);
  });

  it('asks the push service to keep a push of several sides as long as its longest-lived side is worth telling', async () => {
    const ttls: number[] = [];
    const sender = new PushSender({
      db,
      vapid,
      forgotten: async () => undefined,
      fetch: (async (_url: string, init: RequestInit) => {
        ttls.push(Number((init.headers as Record<string, string>)['TTL']));
        return new Response(null, { status: 201 });
      }) as unknown as typeof fetch,
    });
    await sender.start();
    // A confirmed state lives 24 h: Bob's side was learned 20 hours ago, Carol's now (stored in another write).
    const sides = await sidesOfOneTransaction(
      sender,
      [
        { principal: B, learnedAt: Date.now() - 20 * 3_600_000, tries: 0 },
        { principal: 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM', learnedAt: Date.now(), tries: 0 },
      ],
      'confirmed',
    );
    sender.enqueue(sides);
    const [ttl] = await eventually('the push to be sent', async () => (ttls.length > 0 ? ttls : undefined));
    await sender.idle();
    sender.stop();
    expect(ttls).toHaveLength(1);
    // Kept only 4 hours, Carol's side would be lost to a phone offline for longer, though told (the service took it).
    expect(ttl).toBeGreaterThan(24 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(24 * 3600);
  });
});
