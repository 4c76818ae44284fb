/**
 * The push service answers 503 for longer than the old retry budget, and the relay's database goes away mid-stream
 * (PostgreSQL stopped and started again; PGlite refusing every write for a while), under seeded devnet traffic with
 * re-orgs; on PostgreSQL the relay is also killed with SIGKILL and started again: every alert of every device is
 * pushed in its final state, none is lost, and a state is pushed twice only across the kill (a push the service
 * accepted whose told mark was not stored yet) or after a push whose answer the relay gave up waiting for. The truth
 * is the devnet's ledger (tests/monitor/truth/oracle.ts); the scenario is outage-scenario.ts. Push retries run on
 * scaled-down time (scaled-time.ts). `RELAY_FAULT_SEED=7` repeats a run with another seed.
 */
import { relayDataDir } from './pglite-template.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readConfig } from '../../src/relay/config.ts';
import { createLog } from '../../src/relay/log.ts';
import { startRelay } from '../../src/relay/relay.ts';
import { call, freePort, startPushStandIn, waitForLine, type PushStandIn } from './harness.ts';
import { outageScenario, type Counts, type OutageWorld, type RelayUnderTest } from './outage-scenario.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';
import { PushProxy } from './push-proxy.ts';
import { SCALED_RETRY } from './scaled-time.ts';

let devnet: RunningDevnet;
let standIn: PushStandIn;
/** In front of the stand-in: answers 503 while the push service is down, tells which pushes the relay gave up on. */
let proxy: PushProxy;
const world = (): OutageWorld => ({ devnet, standIn, proxy });

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  standIn = await startPushStandIn();
  proxy = await new PushProxy(standIn.origin).start();
});

afterAll(async () => {
  await proxy?.close();
  standIn?.close();
  await devnet?.close();
});

describe('a database outage under traffic, re-orgs and a SIGKILL', () => {
  it('PGlite refusing writes for a while: every alert pushed in its final state, none twice', async () => {
    const seed = Number(process.env['RELAY_FAULT_SEED'] ?? 1);
    const dir = await relayDataDir('relay-outage-pglite-');
    let reported = '';
    const config = readConfig(
      ['--testnet-node', devnet.url, '--data-dir', dir.path, '--port', '0', '--push-allow', proxy.origin],
      {},
    );
    const running = await startRelay(config, {
      log: createLog({ write: (line) => (reported += `${line}\n`) }),
      retry: SCALED_RETRY,
    });
    // The database itself refuses: every transaction the relay begins is read-only until told otherwise.
    const relay: RelayUnderTest = {
      url: running.url,
      vapidPublicKey: running.vapidPublicKey,
      reported: () => reported,
      databaseDown: async () => void (await running.db.query('SET default_transaction_read_only = on')),
      databaseUp: async () => void (await running.db.query('SET default_transaction_read_only = off')),
      close: () => running.close(),
    };
    let counts: Counts | null = null;
    try {
      counts = await outageScenario(world(), seed, () => relay);
      expect(counts.repeats - counts.afterNoAnswer, `seed ${seed}: repeats`).toBe(0);
      expect(reported).toMatch(/done after \d+ tries/);
      // What an operator saw of the push outage: the kind of failure, its repeats counted.
      expect(reported).toMatch(/"event":"push service failed","answer":"503"/);
    } finally {
      // Closed first: the log writes the counts of the lines it held back as repeats.
      await relay.close();
      await dir.remove();
      // Printed whether the run passed or not: the closing figures, or what a failure needs explained.
      console.log(`[relay storage outage] PGlite: ${JSON.stringify(counts)}; the relay logged:\n${reported}`);
    }
  });

  describe('on PostgreSQL', () => {
    let postgres: RunningPostgres;
    beforeAll(async () => {
      postgres = await startPostgres();
    });
    afterAll(async () => {
      await postgres?.stop();
    });

    it('the server stopped and started, the relay killed and started: every alert in its final state', async () => {
      const seed = Number(process.env['RELAY_FAULT_SEED'] ?? 2);
      const dir = await relayDataDir('relay-outage-postgres-');
      const port = await freePort();
      let child: ChildProcess | null = null;
      let reported = '';
      const start = async () => {
        const started = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            'tests/relay/scaled-relay.ts',
            '--testnet-node',
            devnet.url,
            '--database-url',
            postgres.url,
            '--data-dir',
            dir.path,
            '--port',
            String(port),
          ],
          {
            stdio: ['ignore', 'ignore', 'pipe'],
            env: { ...process.env, RELAY_PUSH_ALLOW: proxy.origin },
          },
        );
        child = started;
        started.stderr?.on('data', (chunk: Buffer) => (reported += chunk.toString()));
        await waitForLine(started, 'stderr', /relay listening/);
      };
      await start();
      const key = (await call(`http://127.0.0.1:${port}/v1/vapid-public-key`)).body?.['publicKey'] as string;
      const relay: RelayUnderTest = {
        url: `http://127.0.0.1:${port}`,
        vapidPublicKey: key,
        reported: () => reported,
        databaseDown: () => postgres.down(),
        databaseUp: () => postgres.up(),
        kill: async () => {
          const running = child!;
          running.kill('SIGKILL');
          await new Promise((resolve) => (running.exitCode !== null ? resolve(null) : running.once('exit', resolve)));
          const client = new pg.Client({ connectionString: postgres.url });
          await client.connect();
          try {
            const { rows } = await client.query<{ device_id: string; cursor: string }>(
              `SELECT device_id, cursor FROM deliveries WHERE status = 'queued'`,
            );
            return new Set(rows.map((row) => `${row.device_id} ${row.cursor}`));
          } finally {
            await client.end();
          }
        },
        restart: start,
        close: async () => {
          // Stopped as an operator stops it: the log writes the counts of the lines it held back as repeats.
          const running = child;
          if (running && running.exitCode === null) {
            const exited = new Promise((resolve) => running.once('exit', resolve));
            running.kill('SIGTERM');
            await exited;
          }
          await dir.remove();
        },
      };
      let counts: Counts | null = null;
      try {
        counts = await outageScenario(world(), seed, () => relay);
        expect(reported).toMatch(/done after \d+ tries/);
        expect(reported).toMatch(/"event":"push service failed","answer":"503"/);
      } finally {
        await relay.close();
        console.log(`[relay storage outage] PostgreSQL: ${JSON.stringify(counts)}; the relay logged:\n${reported}`);
      }
    });
  });
});
