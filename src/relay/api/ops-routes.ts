import type { IncomingMessage } from 'node:http';
import { NETWORKS, type Network } from '../../domain/network.ts';
import type { Log } from '../log.ts';
import type { QueuedSend } from '../storage/deliveries.ts';
import { deadLetters, redrive } from '../storage/dead-letters.ts';
import type { Database } from '../storage/sql.ts';
import { metricsText, type DevicesInMemory } from './metrics.ts';
import { bearerToken, hashSecret, secretMatches } from './secrets.ts';
import type { NetworkHealth } from '../engine/control.ts';
import type { FailingPushes, PushAnswers } from '../push/push-answers.ts';

export interface OpsSources {
  readonly db: Database;
  readonly networks: () => Partial<Record<Network, NetworkHealth>>;
  /** The devices whose alerts are in memory now, and how many times one put away was read back since start. */
  readonly inMemory?: () => DevicesInMemory;
  /** Why a network has no node here (the flag that would give it one), for /health's `notFollowed`. */
  readonly unfollowedReason?: (network: Network) => string;
  readonly sender: {
    /** The answers by kind, and the failed pushes in a row once they say the push services are failing. */
    readonly answers: ReadonlyMap<string, number> & Pick<PushAnswers, 'failing'>;
    readonly givenUp: number;
    /** States whose push went unanswered since start (each side of a push). */
    readonly unansweredStates: number;
    enqueue(sends: readonly QueuedSend[]): void;
  };
  readonly metrics: boolean;
  readonly adminToken: string | null;
  /** This instance among those on one PostgreSQL database (its name, partitions, devices judged); null alone. */
  readonly instance?: (() => Record<string, unknown>) | null;
  /** Who claims re-driven states: this instance's name on a shared database. */
  readonly claimer?: string | null;
  readonly log: Log;
  readonly now?: () => number;
}

export type OpsAnswer = [status: number, body: unknown];

export interface SenderHealth {
  readonly queued: number;
  readonly oldestQueuedSeconds: number | null;
  readonly deadLetters: number;
  readonly givenUpSinceStart: number;
  readonly unansweredStatesSinceStart: number;
  readonly answers: Record<string, number>;
}

/**
 * One followed network in words, beside its figures: `idle` (no device watches an address of it yet, so its node is
 * not asked: normal before the first device registers), `syncing` (some principals wait for their first sync),
 * `following` (its node answers), `node away` (it does not; readiness fails when every network in use is away).
 */
export type NetworkState = 'idle' | 'syncing' | 'following' | 'node away';

export interface NetworkReport extends NetworkHealth {
  readonly state: NetworkState;
}

export function networkState(health: NetworkHealth): NetworkState {
  if (health.principals === 0) return 'idle';
  if (!health.reachable) return 'node away';
  return health.unsynced > 0 ? 'syncing' : 'following';
}

const DATABASE_TIMEOUT_MS = 3000;
/** /health is unauthenticated and polled by every probe: its queue figures (a scan of the queued and failed rows) are
 * read at most this often; /metrics, kept off the public site, reads them each time. */
export const HEALTH_FIGURES_MS = 5000;

/**
 * The operator's routes: liveness (`/health/live`: the process answers), readiness (`/health`, `/health/ready`: 503
 * when the database does not answer, no followed node can be reached, or every push has failed for a while,
 * FAILING_PUSHES; with the sender's queue and failures), `/metrics` when enabled, and the dead-letter list behind the
 * admin token. Null for any other path.
 */
export function opsRoutes(sources: OpsSources) {
  const now = sources.now ?? Date.now;
  let figures: { readonly at: number; readonly health: Promise<StoredFigures> } | null = null;
  const cachedFigures = (): Promise<StoredFigures> => {
    if (figures && now() - figures.at < HEALTH_FIGURES_MS) return figures.health;
    const health = storedFigures();
    const taken = { at: now(), health };
    figures = taken;
    // A failed read is not kept: the next probe asks again.
    health.catch(() => {
      if (figures === taken) figures = null;
    });
    return health;
  };
  return async (
    request: IncomingMessage,
    path: string,
    method: string,
    query = new URLSearchParams(),
  ): Promise<OpsAnswer | null> => {
    if (method === 'GET' && path === '/health/live') return [200, { ok: true }];
    if (method === 'GET' && (path === '/health' || path === '/health/ready')) return readiness();
    if (method === 'GET' && path === '/metrics' && sources.metrics) {
      const [database, stored] = await Promise.all([databaseUp(), storedFigures().catch(() => null)]);
      const sender = stored?.sender ?? null;
      return [
        200,
        metricsText({
          database,
          sender,
          networks: sources.networks(),
          devices: { registered: stored?.devices ?? null, ...sources.inMemory?.() },
        }),
      ];
    }
    if (!path.startsWith('/admin/')) return null;
    if (!sources.adminToken) return [404, { error: 'not_found', message: 'the admin routes are off (no admin token)' }];
    const given = bearerToken(request.headers.authorization) ?? '';
    if (!secretMatches(given, hashSecret(sources.adminToken)))
      return [401, { error: 'unauthorized', message: 'send "Authorization: Bearer <the admin token>"' }];
    if (method === 'GET' && path === '/admin/dead-letters') return [200, await deadLetters(sources.db)];
    if (method === 'POST' && path === '/admin/dead-letters/redrive') {
      const device = query.get('device');
      const { requeued, superseded } = await sources.db.transaction((sql) =>
        redrive(sql, device, now(), sources.claimer ?? null),
      );
      sources.sender.enqueue(requeued);
      sources.log.info('dead letters re-driven', { requeued: requeued.length, superseded, device });
      return [200, { requeued: requeued.length, superseded }];
    }
    return [404, { error: 'not_found', message: `no such admin route: ${method} ${path}` }];
  };

  async function readiness(): Promise<OpsAnswer> {
    const followed = sources.networks();
    const used = Object.values(followed).filter((network) => network.principals > 0);
    const nodesUp = used.length === 0 || used.some((network) => network.reachable);
    const database = await databaseUp();
    const stored = database ? await cachedFigures().catch(() => null) : null;
    const sender = stored && {
      ...stored.sender,
      givenUpSinceStart: sources.sender.givenUp,
      unansweredStatesSinceStart: sources.sender.unansweredStates,
      answers: Object.fromEntries(sources.sender.answers),
    };
    const networks = Object.fromEntries(
      Object.entries(followed).map(([network, health]) => [network, { ...health, state: networkState(health) }]),
    ) as Partial<Record<Network, NetworkReport>>;
    const notFollowed = Object.fromEntries(
      NETWORKS.filter((network) => !followed[network]).map((network) => [
        network,
        sources.unfollowedReason?.(network) ?? `this relay follows no ${network} node`,
      ]),
    );
    const pushesFailing = sources.sender.answers.failing(now());
    const ok = database && nodesUp && !pushesFailing;
    if (!ok) sources.log.warn('not ready', { database, nodes: nodesUp, pushes: !pushesFailing });
    return [
      ok ? 200 : 503,
      {
        ok,
        summary: summary(database, nodesUp, pushesFailing, stored?.devices ?? null, used.length),
        database,
        devices: stored?.devices ?? null,
        networks,
        notFollowed,
        sender,
        pushesFailing,
        ...(sources.instance ? { instance: sources.instance() } : {}),
      },
    ];
  }

  async function databaseUp(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), DATABASE_TIMEOUT_MS)));
    const answered = sources.db
      .within('alert-path')
      .query('SELECT 1')
      .then(
        () => true,
        () => false,
      );
    const up = await Promise.race([answered, late]);
    clearTimeout(timer);
    return up;
  }

  /** The sender's queue and the devices registered, in one statement. */
  async function storedFigures(): Promise<StoredFigures> {
    const [row] = await sources.db.query<{
      queued: number | string;
      oldest: number | string | null;
      failed: number | string;
      devices: number | string;
    }>(
      `SELECT count(*) FILTER (WHERE status = 'queued') AS queued,
              min((alert::json->>'at')::bigint) FILTER (WHERE status = 'queued') AS oldest,
              count(*) FILTER (WHERE status = 'failed') AS failed,
              (SELECT devices FROM relay_totals) AS devices
         FROM deliveries WHERE status IN ('queued', 'failed')`,
    );
    const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
    return {
      devices: Number(row?.devices ?? 0),
      sender: {
        queued: Number(row?.queued ?? 0),
        oldestQueuedSeconds: oldest === null ? null : Math.max(0, Math.round((now() - oldest) / 1000)),
        deadLetters: Number(row?.failed ?? 0),
        givenUpSinceStart: sources.sender.givenUp,
        unansweredStatesSinceStart: sources.sender.unansweredStates,
        answers: Object.fromEntries(sources.sender.answers),
      },
    };
  }
}

interface StoredFigures {
  readonly devices: number;
  readonly sender: SenderHealth;
}

/** What /health means, in a sentence: an operator reading it before any phone registers learns that idle is normal. */
function summary(
  database: boolean,
  nodesUp: boolean,
  pushes: FailingPushes | null,
  devices: number | null,
  networksInUse: number,
): string {
  if (!database) return 'not ready: the database does not answer';
  if (!nodesUp) return 'not ready: no node of a network in use can be reached';
  if (pushes)
    return (
      `not ready: pushes failing: ${pushes.consecutive} consecutive failures since ` +
      `${new Date(pushes.since).toISOString()}, the last answered ${pushes.lastAnswer} (sender.answers counts the ` +
      "push services' answers; what is given up goes to the dead-letter list)"
    );
  // The device count is read at most every few seconds, the principals live: a device just registered shows first.
  if (devices === 0 && networksInUse === 0)
    return (
      'ready; no device has registered yet, which is normal before the first phone turns on alerts when the app is ' +
      'closed: each network stays idle (its node is not asked) until a device watches one of its addresses'
    );
  if (networksInUse === 0) return 'ready; the devices registered watch no address of a network this relay follows';
  return 'ready';
}
