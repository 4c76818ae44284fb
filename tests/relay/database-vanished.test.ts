/**
 * The relay's PostgreSQL goes away without a word: a stand-in between them (vanishing-peer.ts) stops passing bytes
 * and closes nothing, as a host that vanished, a network split or a hung server does. The relay's statements must
 * fail within their limits instead of waiting for the operating system, its writes be retried on new connections,
 * and every alert land once the database answers again, stored and pushed once each: also when a COMMIT reached the
 * server and only its answer was lost. The limits are made short here (RelayHooks.databaseLimits).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readConfig } from '../../src/relay/config.ts';
import { createLog } from '../../src/relay/log.ts';
import { startRelay, type RunningRelay } from '../../src/relay/relay.ts';
import type { PostgresLimits } from '../../src/relay/storage/postgres-limits.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import { call, eventually, registerDevice, startPushStandIn, tempDir, type PushStandIn } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';
import { Observed } from './scenario.ts';
import { VanishingPeer } from './vanishing-peer.ts';

/** Short, and still far above what this test's statements take on a loaded machine. */
const SHORT: PostgresLimits = {
  connectMs: 1_000,
  keepAliveDelayMs: 1_000,
  idleMs: 30_000,
  idleInTransactionMs: 2_000,
  alertPath: { statementMs: 1_500, queryMs: 2_000 },
  routine: { statementMs: 3_000, queryMs: 4_000 },
};

/** What a statement that gave up on the vanished database says (pg's words), in the relay's reports. */
const GAVE_UP =
  /Query read timeout|timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

let postgres: RunningPostgres;
let peer: VanishingPeer;
let devnet: RunningDevnet;
let standIn: PushStandIn;
/** The server itself, not through the stand-in: each run's database is made here. */
let server: Database;

beforeAll(async () => {
  postgres = await startPostgres();
  peer = new VanishingPeer(Number(new URL(postgres.url).port));
  const port = await peer.start();
  standIn = await startPushStandIn();
  server = await openDatabase({ url: postgres.url }, () => undefined);
  peerPort = port;
});

afterAll(async () => {
  await server?.close();
  standIn?.close();
  await peer?.close();
  await postgres?.stop();
});

let peerPort = 0;
let runs = 0;

interface RelayRun {
  readonly relay: RunningRelay;
  /** Its database, not through the stand-in: what is stored, as the test sees it. */
  readonly direct: Database;
  /** Everything it logged and reported. */
  readonly said: () => string;
  close(): Promise<void>;
}

/** A relay through the stand-in, following a devnet of its own. */
async function relayThroughPeer(): Promise<RelayRun> {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  // A database of its own each run: nothing one run left behind its vanished connections meets the next.
  const name = `vanished_${++runs}`;
  await server.query(`CREATE DATABASE ${name}`);
  const direct = await openDatabase({ url: postgres.url.replace(/\/postgres$/, `/${name}`) }, () => undefined);
  const relayUrl = postgres.url.replace(/:\d+\/postgres$/, `:${peerPort}/${name}`);
  const dir = await tempDir('relay-vanished-');
  let said = '';
  const config = readConfig(
    // An instance of its own each run: each follows the chain from its tip, as a new instance does.
    [
      ...['--testnet-node', devnet.url, '--database-url', relayUrl, '--data-dir', dir.path, '--port', '0'],
      ...['--instance', name],
    ],
    { RELAY_PUSH_ALLOW: standIn.origin },
  );
  const log = createLog({ write: (line) => (said += `${line}\n`) });
  const relay = await startRelay(config, {
    log,
    report: (problem) => (said += `${problem}\n`),
    backoffMs: 50,
    databaseLimits: SHORT,
  });
  return {
    relay,
    direct,
    said: () => said,
    async close() {
      await relay.close();
      await direct.close();
      await devnet.close();
      await dir.remove();
    },
  };
}

/** A device watching `principal`, its pushes, and a check that each state the devnet's ledger expects was pushed. */
async function watching(run: RelayRun, observed: Observed, principal: string) {
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
    /** Each state stored once in the device's log, and pushed once. */
    async expectOnce() {
      const rows = await run.direct.query<{ alert_id: string; phase: string; status: string }>(
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

describe('the database vanishes under the relay (PostgreSQL)', () => {
  it('statements on the silent connections fail within their limits, and every alert lands once it is back', async () => {
    const run = await relayThroughPeer();
    try {
      const { chain } = devnet.node;
      const [alice, bob] = chain.accounts.people.map((person) => person.address) as [string, string];
      const observed = new Observed(chain);
      const device = await watching(run, observed, bob);
      await observed.transfer(alice, bob, 1_000n);
      await device.delivered('the first transfer, pending, while the database answers');

      // Gone: the connections the relay holds say nothing more, and new ones are never answered.
      peer.vanish();
      await observed.transfer(alice, bob, 2_000n);
      chain.mine();
      await eventually('a statement to give up on the vanished database', async () =>
        GAVE_UP.test(run.said()) ? true : undefined,
      );
      peer.restore();
      await device.delivered('both transfers, confirmed, once the database is back');
      await run.relay.sender.idle();
      await device.expectOnce();
      // Told as storage failures, retried until stored.
      expect(run.said()).toMatch(/failed, trying again until it works/);
      expect(run.said()).toMatch(/done after \d+ tries/);
    } finally {
      await run.close();
    }
  });

  it('a COMMIT that reached the server, its answer lost: the state is stored and pushed once, not twice', async () => {
    const run = await relayThroughPeer();
    try {
      const { chain } = devnet.node;
      const [, , carol, dave] = chain.accounts.people.map((person) => person.address) as [
        string,
        string,
        string,
        string,
      ];
      const observed = new Observed(chain);
      const device = await watching(run, observed, dave);

      // Each COMMIT reaches the server, which commits; its answer is lost and the connection goes silent.
      peer.loseCommitAnswers();
      await observed.transfer(carol, dave, 3_000n);
      await device.delivered('the transfer, pending, its transaction committed unanswered');
      expect(peer.commitsLost).toBeGreaterThan(0);
      peer.restore();
      chain.mine();
      await device.delivered('the transfer, confirmed');
      await run.relay.sender.idle();
      await device.expectOnce();
    } finally {
      await run.close();
    }
  });
});
