import { relayDataDir } from './pglite-template.ts';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLog } from '../../src/relay/log.ts';
import { HEALTH_FIGURES_MS, opsRoutes } from '../../src/relay/api/ops-routes.ts';
import { PushAnswers } from '../../src/relay/push/push-answers.ts';
import { migrate } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import type { tempDir } from './harness.ts';

/** /health is unauthenticated: however often it is asked, the queue is scanned at most once per few seconds. */
let db: Database;
let dir: Awaited<ReturnType<typeof tempDir>>;
beforeAll(async () => {
  dir = await relayDataDir('relay-health-figures-');
  db = await openDatabase({ dataDir: dir.path });
  await migrate(db);
});
afterAll(async () => {
  await db?.close();
  await dir?.remove();
});

describe('the health route', () => {
  it('reads the queue figures from the database at most once per window, the counters in memory each time', async () => {
    let scans = 0;
    const counted: Database = {
      ...db,
      query: (text, params) => {
        if (text.includes('FROM deliveries')) scans += 1;
        return db.query(text, params);
      },
    };
    let clock = 1_000_000;
    const answers = new PushAnswers();
    answers.count('201', clock);
    const sender = { answers, givenUp: 0, unansweredStates: 0, enqueue: () => undefined };
    const route = opsRoutes({
      db: counted,
      networks: () => ({}),
      sender,
      metrics: true,
      adminToken: null,
      log: createLog({ write: () => undefined }),
      now: () => clock,
    });
    const request = { headers: {}, url: '/health' } as IncomingMessage;
    for (let probe = 0; probe < 20; probe++) expect((await route(request, '/health', 'GET'))?.[0]).toBe(200);
    expect(scans).toBe(1);
    sender.givenUp = 3;
    const [, body] = (await route(request, '/health', 'GET'))!;
    expect(body).toMatchObject({ sender: { givenUpSinceStart: 3, queued: 0 } });
    expect(scans).toBe(1);
    clock += HEALTH_FIGURES_MS;
    await route(request, '/health', 'GET');
    expect(scans).toBe(2);
    // The metrics (off the public site) read them each time.
    await route(request, '/metrics', 'GET');
    expect(scans).toBe(3);
  });
});
