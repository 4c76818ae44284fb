/**
 * Relays on a PostgreSQL server of the test's own, each reaching it through a loopback stand-in that can go silent
 * (vanishing-peer.ts) or straight: what database-vanished.test.ts and database-lost.test.ts share.
 */
import { expect } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readConfig } from '../../src/relay/config.ts';
import { createLog } from '../../src/relay/log.ts';
import { startRelay, type RelayHooks, type RunningRelay } from '../../src/relay/relay.ts';
import type { PostgresLimits } from '../../src/relay/storage/postgres-limits.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import { call, eventually, registerDevice, startPushStandIn, tempDir, type PushStandIn } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';
import type { Observed } from './scenario.ts';
import { VanishingPeer } from './vanishing-peer.ts';

/** Short, and still far above what these tests' statements take on a loaded machine. */
export const SHORT: PostgresLimits = {
  connectMs: 1_000,
  keepAliveDelayMs: 1_000,
  idleMs: 30_000,
  idleInTransactionMs: 2_000,
  listenHeartbeatMs: 500,
  alertPath: { statementMs: 1_500, queryMs: 2_000 },
  routine: { statementMs: 3_000, queryMs: 4_000 },
};

/** What a statement that gave up on the vanished database says (pg's words), in the relay's reports. */
export const GAVE_UP =
  /Query read timeout|timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

export interface PeerWorld {
  readonly postgres: RunningPostgres;
  readonly peer: VanishingPeer;
  readonly standIn: PushStandIn;
  /** The server itself, not through the stand-in: each run's database is made here. */
  readonly server: Database;
  readonly peerPort: number;
  /** A new empty database on the server; its name. */
  database(): Promise<string>;
  close(): Promise<void>;
}

export async function startPeerWorld(): Promise<PeerWorld> {
  const postgres = await startPostgres();
  const peer = new VanishingPeer(Number(new URL(postgres.url).port));
  const peerPort = await peer.start();
  const standIn = await startPushStandIn();
  const server = await openDatabase({ url: postgres.url }, () => undefined);
  let made = 0;
  return {
    postgres,
    peer,
    standIn,
    server,
    peerPort,
    async database() {
      const name = `vanished_${++made}`;
      await server.query(`CREATE DATABASE ${name}`);
      return name;
    },
    async close() {
      await server.close();
      standIn.close();
      await peer.close();
      await postgres.stop();
    },
  };
}

export interface RelayRun {
  readonly relay: RunningRelay;
  /** Its database, not through the stand-in: what is stored, as the test sees it. */
  readonly direct: Database;
  /** Everything it logged and reported. */
  readonly said: () => string;
  /** Stops the relay (once, however often asked). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface RelayPlace {
  readonly database: string;
  /** Its instance name: the same name again is the same instance started again. */
  readonly instance: string;
  readonly devnet: RunningDevnet;
  /** Through the stand-in (true), or straight to the server. */
  readonly throughPeer?: boolean;
  readonly hooks?: RelayHooks;
}

/** A relay on `database` (through the stand-in unless told otherwise), following `devnet`. */
export async function relayOn(world: PeerWorld, place: RelayPlace): Promise<RelayRun> {
  const directUrl = world.postgres.url.replace(/\/postgres$/, `/${place.database}`);
  const direct = await openDatabase({ url: directUrl }, () => undefined);
  const relayUrl =
    place.throughPeer === false ? directUrl : directUrl.replace(/:\d+\/([^/]+)$/, `:${world.peerPort}/$1`);
  const dir = await tempDir('relay-vanished-');
  let said = '';
  const config = readConfig(
    [
      ...['--testnet-node', place.devnet.url, '--database-url', relayUrl, '--data-dir', dir.path, '--port', '0'],
      ...['--instance', place.instance],
    ],
    { RELAY_PUSH_ALLOW: world.standIn.origin },
  );
  const log = createLog({ write: (line) => (said += `${line}\n`) });
  const relay = await startRelay(config, {
    log,
    report: (problem) => (said += `${problem}\n`),
    backoffMs: 50,
    databaseLimits: SHORT,
    ...place.hooks,
  });
  let stopping: Promise<void> | null = null;
  const stop = () => (stopping ??= relay.close());
  return {
    relay,
    direct,
    said: () => said,
    stop,
    async close() {
      await stop();
      await direct.close();
      await dir.remove();
    },
  };
}

/** A devnet of a test's own, mining only when told. */
export const quietDevnet = (): Promise<RunningDevnet> => startDevnet({ port: 0, blockMs: null, activity: false });

/** A device watching `principal`, its pushes, and a check that each state the devnet's ledger expects was pushed. */
export async function watching(world: PeerWorld, run: RelayRun, observed: Observed, principal: string) {
  const { standIn } = world;
  const device = await registerDevice(run.relay.url, run.relay.vapidPublicKey, standIn, [principal]);
  expect(device.registered.status).toBe(201);
  observed.watch(principal);
  await eventually('the relay to follow the devnet', async () => {
    const health = (await call(`${run.relay.url}/health`)).body as { networks?: { testnet?: { connected: boolean } } };
    return health.networks?.testnet?.connected ? true : undefined;
  });
  const pushed = async () =>
    (await standIn.notifications(device.clientHash)).map(
      (text) => (JSON.parse(text) as { alert: { id: string; phase: string } }).alert,
    );
  return {
    device,
    pushed,
    /** Every alert the ledger expects, pushed in its final state (a ceiling for the hang before the fix). */
    delivered: (what: string) =>
      eventually(
        what,
        async () => {
          const last = new Map((await pushed()).map((alert) => [alert.id, alert.phase]));
          const expected = observed.expected();
          return expected.size > 0 && [...expected].every(([id, phase]) => last.get(id) === phase) ? true : undefined;
        },
        60_000,
      ),
    /** Each state stored once in the device's log (as `direct` reads it), and pushed once. */
    async expectOnce(direct: Database = run.direct) {
      const rows = await direct.query<{ alert_id: string; phase: string; status: string }>(
        'SELECT alert_id, phase, status FROM deliveries WHERE device_id = $1',
        [device.id],
      );
      const stored = rows.map((row) => `${row.alert_id} ${row.phase}`);
      expect(stored.length).toBeGreaterThan(0);
      expect(new Set(stored).size, `stored twice: ${stored.join(', ')}`).toBe(stored.length);
      // Told, or replaced by the alert's next state before it left (`superseded`): never both pushed.
      expect(rows.filter((row) => row.status !== 'superseded').map((row) => row.status)).toEqual(
        rows.filter((row) => row.status !== 'superseded').map(() => 'told'),
      );
      const told = rows.filter((row) => row.status === 'told').map((row) => `${row.alert_id} ${row.phase}`);
      const pushes = (await pushed()).map((alert) => `${alert.id} ${alert.phase}`);
      expect(pushes.sort()).toEqual(told.sort());
    },
  };
}
