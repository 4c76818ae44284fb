import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { opsRoutes } from './api/ops-routes.ts';
import { DeviceExpiry } from './device-expiry.ts';
import { closeServer, DRAIN_DEADLINE_MS } from './graceful-stop.ts';
import { createApiServer, relayApi, type RelayApi } from './api/server.ts';
import type { RelayConfig } from './config.ts';
import type { EngineControl } from './engine/control.ts';
import type { MonitorTiming } from './engine/network-followers.ts';
import { RelayEngine } from './engine/relay-engine.ts';
import { createLog, reportTo, type Log } from './log.ts';
import { Cluster } from './cluster/cluster.ts';
import { hasSharedVapidKey, sharedVapidKeys } from './cluster/shared-vapid.ts';
import { leaseFence } from './cluster/write-fence.ts';
import { checkLostVapidKey } from './push/vapid-lost-key.ts';
import { startPoster } from './push/pipeline.ts';
import type { RetryPolicy } from './push/retry-policy.ts';
import type { FailingThreshold } from './push/push-answers.ts';
import { PushSender } from './push/sender.ts';
import { loadVapidKeys } from './push/vapid.ts';
import { AlertWrites } from './storage/alert-writes.ts';
import { lockDataDir } from './storage/data-dir-lock.ts';
import { restrictDataDir } from './storage/file-modes.ts';
import { SqlAnchors, SqlNames, SqlTokens } from './storage/sql-facts.ts';
import { SqlSnapshots } from './storage/sql-snapshots.ts';
import { migrate } from './storage/migrations.ts';
import type { PostgresLimits } from './storage/postgres-limits.ts';
import { settlesWithin } from './settles-within.ts';
import { openDatabase, type Database } from './storage/sql.ts';
import type { QueuedSend } from './storage/deliveries.ts';

export interface RunningRelay {
  /** Where it listens; '' when it does not listen itself (mounted in another server through `api`). */
  readonly url: string;
  /** The HTTP API's state, for the Fastify plugin that serves it (api/server.ts's `relayRoutes`). */
  readonly api: RelayApi;
  readonly db: Database;
  readonly engine: RelayEngine;
  readonly sender: PushSender;
  readonly vapidPublicKey: string;
  /** Forgets the devices expired by now (also done hourly); how many. */
  expireDevices(): Promise<number>;
  close(): Promise<void>;
}

export interface RelayHooks {
  /** The engine's problems; the log's warnings by default. */
  readonly report?: (problem: string) => void;
  readonly log?: Log;
  readonly onSent?: (send: QueuedSend, at: number) => void;
  /** First retry of a failed push (tests scale time down with it). */
  readonly backoffMs?: number;
  /** false: open no port; another server (src/server/) mounts the API on the app's origin. */
  readonly listen?: boolean;
  readonly retry?: Partial<RetryPolicy>;
  /** How soon a node away is asked again (tests scale time down with it). */
  readonly monitorTiming?: MonitorTiming;
  /** The clock of the API's limits and of device expiry (tests move it). */
  readonly now?: () => number;
  /** PostgreSQL's time limits (tests make a vanished database fail in milliseconds). */
  readonly databaseLimits?: Partial<PostgresLimits>;
  /** How long a stop on PostgreSQL waits for the work under way to be stored (DRAIN_DEADLINE_MS). */
  readonly drainMs?: number;
  /** When failed pushes in a row make readiness fail (FAILING_PUSHES; tests scale its time down). */
  readonly pushesFailing?: FailingThreshold;
}

/** Opens the database (migrating it), loads the VAPID keys, starts the engine, the sender and the HTTP API. */
export async function startRelay(config: RelayConfig, hooks: RelayHooks = {}): Promise<RunningRelay> {
  const log = hooks.log ?? createLog();
  const report = hooks.report ?? reportTo(log);
  // The embedded database is this process's alone: a second one on the directory stops here, naming the first.
  const lock = config.databaseUrl ? null : await lockDataDir(config.dataDir);
  // What started is closed again, last first, when a later step fails (a port taken, a node unreachable): a failed
  // start leaves no thread, timer or database handle behind.
  const started: (() => Promise<void>)[] = lock ? [() => lock.release()] : [];
  try {
    // The port is bound before anything is judged or pushed: a relay that cannot listen sends nothing.
    const listener = hooks.listen === false ? null : await listenEarly(config);
    if (listener) started.push(() => closeServer(listener.server));
    const db = await openDatabase(
      config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir },
      report,
      hooks.databaseLimits,
    );
    started.push(() => db.close());
    const relay = await startOn(db, config, hooks, log, report, started, listener);
    return lock ? { ...relay, close: () => relay.close().finally(() => lock.release()) } : relay;
  } catch (error) {
    for (const close of started.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

interface EarlyListener {
  readonly server: Server;
  /** The API, once the relay is ready; until then every request is answered 503. */
  serve(api: RelayApi): void;
}

async function listenEarly(config: RelayConfig): Promise<EarlyListener> {
  let ready: RelayApi | null = null;
  const app = createApiServer(() => ready);
  await app.ready();
  // The node server itself listens: exactly the one address asked for (Fastify's own listen would add ::1 to
  // "localhost"), and closeServer (graceful-stop.ts) stops it as before.
  await new Promise<void>((resolve, reject) => {
    app.server.once('error', reject);
    app.server.listen(config.port, config.host, resolve);
  });
  return { server: app.server, serve: (api) => (ready = api) };
}

async function startOn(
  db: Database,
  config: RelayConfig,
  hooks: RelayHooks,
  log: Log,
  report: (problem: string) => void,
  started: (() => Promise<void>)[],
  listener: EarlyListener | null,
): Promise<RunningRelay> {
  await migrate(db);
  // On PostgreSQL every instance signs with the key the database holds (one for all); alone, with its vapid.json.
  const shared = config.databaseUrl !== null;
  if (!shared || !(await hasSharedVapidKey(db)))
    await checkLostVapidKey(db, config.dataDir, config.ops.forgetDevicesWithoutKey, log);
  const vapid = shared
    ? await sharedVapidKeys(db, config.dataDir, config.vapidSubject)
    : await loadVapidKeys(config.dataDir, config.vapidSubject);
  // On PostgreSQL with the key in the database, nothing else made the directory (the lock, PGlite, vapid.json).
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await restrictDataDir(config.dataDir);
  const poster = await startPoster(config.pushThreads, report);
  started.push(() => poster.close());
  let engine: RelayEngine | null = null;
  let cluster: Cluster | null = null;
  const sender = new PushSender({
    db,
    vapid,
    poster,
    forgotten: async (deviceId) => {
      await engine?.deviceDeleted(deviceId);
      await cluster?.tell('deleted', deviceId);
    },
    appOrigin: config.appOrigins[0] ?? null,
    log,
    pushAllow: config.pushAllow,
    retry: { ...(hooks.backoffMs !== undefined ? { backoffMs: hooks.backoffMs } : {}), ...hooks.retry },
    // On a shared database the partition leases hand it what it sends.
    takeUpQueued: !shared,
    // On a shared database it pushes only while its heartbeat is fresh: others take a silent instance's claims.
    ...(shared ? { fence: () => cluster?.leases.freshUntil() ?? 0 } : {}),
    ...(hooks.onSent ? { onSent: hooks.onSent } : {}),
    ...(hooks.pushesFailing ? { failing: hooks.pushesFailing } : {}),
  });
  const writes = new AlertWrites(
    db,
    (sends) => sender.enqueue(sends),
    shared ? config.instance : null,
    shared ? leaseFence(config.instance, log) : undefined,
  );
  const snapshots = new SqlSnapshots(db, report, config.instance);
  engine = new RelayEngine({
    db,
    writes,
    snapshots,
    anchors: new SqlAnchors(db, snapshots, report),
    tokens: new SqlTokens(db),
    names: new SqlNames(db),
    nodes: config.nodes,
    report,
    instance: config.instance,
    activeDevices: config.activeDevices,
    ...(shared ? { owns: (deviceId: string) => cluster?.owns(deviceId) ?? false } : {}),
    ...(hooks.monitorTiming ? { timing: hooks.monitorTiming } : {}),
  });
  const running = engine;
  if (shared) cluster = new Cluster(db, config.instance, () => running, sender, log);
  const joined = cluster;
  // What was queued before a stop is taken up first; the engine's catch-up queues behind it.
  started.push(async () => {
    sender.stop();
    await sender.idle();
    await joined?.stop();
  });
  await sender.start();
  started.push(async () => {
    running.stop();
    await running.idle();
    await writes.idle();
  });
  await running.start();
  // Its share of the devices once its followers have the chain's tip; renewed every few seconds from then on.
  await joined?.start();
  // The sender learns each device's subscription from the API, before the engine judges anything for it.
  const control: EngineControl = {
    networks: () => running.networks(),
    health: () => running.health(),
    deviceChanged: async (deviceId, watches, subscription) => {
      sender.subscribed(deviceId, subscription);
      await running.deviceChanged(deviceId, watches);
      await joined?.tell('changed', deviceId);
    },
    deviceDeleted: async (deviceId) => {
      sender.forget(deviceId);
      await running.deviceDeleted(deviceId);
      await joined?.tell('deleted', deviceId);
    },
  };
  const api = relayApi({
    db,
    engine: control,
    vapidPublicKey: vapid.publicKey,
    appOrigins: config.appOrigins,
    pushAllow: config.pushAllow,
    requestsPerMinute: config.requestsPerMinute,
    trustedProxies: config.trustedProxies,
    caps: config.caps,
    log,
    ...(hooks.now ? { now: hooks.now } : {}),
    ops: opsRoutes({
      db,
      networks: () => running.health(),
      inMemory: () => ({ devices: running.activeCount(), readBack: running.reopened() }),
      unfollowedReason: (network) =>
        `no --${network}-node (RELAY_${network.toUpperCase()}_NODE) was given, so the relay asks no ${network} node ` +
        `and a device's ${network} addresses are answered as unwatched; give one to follow ${network} too`,
      sender,
      metrics: config.ops.metrics,
      adminToken: config.ops.adminToken,
      log,
      instance: joined ? () => joined.status() : null,
      claimer: joined?.instance ?? null,
    }),
  });
  const expiry = new DeviceExpiry({
    db,
    engine: control,
    maxIdleDays: config.caps.deviceMaxIdleDays,
    log,
    ...(hooks.now ? { now: hooks.now } : {}),
  });
  expiry.start();
  started.push(async () => expiry.stop());
  listener?.serve(api);
  const server = listener?.server ?? null;
  const port = server ? (server.address() as AddressInfo).port : null;
  return {
    url: port === null ? '' : `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    api,
    db,
    engine: running,
    sender,
    vapidPublicKey: vapid.publicKey,
    expireDevices: () => expiry.sweep(),
    async close() {
      if (server) await closeServer(server);
      const drained = (async () => {
        await joined?.halt();
        expiry.stop();
        await expiry.idle();
        running.stop();
        await running.idle();
        await writes.idle();
        sender.stop();
        await sender.idle();
        await joined?.stop();
      })();
      // PostgreSQL may have vanished, and its writes are retried until stored: the wait is bounded, and what is left
      // is left as a killed relay leaves it (not marked done, so judged and sent again at the next start).
      if (!config.databaseUrl || (await settlesWithin(drained, hooks.drainMs ?? DRAIN_DEADLINE_MS))) await drained;
      else {
        log.warn('stop cut short', { message: 'the database did not store what was under way in time' });
        expiry.stop();
        running.stop();
        sender.stop();
        void joined?.stop().catch(() => undefined);
      }
      await poster.close();
      await db.close();
      // What PGlite wrote since the start (a launcher without the umask made it readable to others).
      if (!config.databaseUrl) await restrictDataDir(config.dataDir);
      log.info('stopped');
      log.flush();
    },
  };
}
