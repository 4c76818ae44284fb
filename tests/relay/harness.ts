import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readConfig } from '../../src/relay/config.ts';
import { startRelay, type RelayHooks, type RunningRelay } from '../../src/relay/relay.ts';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

export async function tempDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** A relay in this process on the embedded database, following `testnetNode`. */
export async function relayInProcess(
  testnetNode: string,
  dataDir: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
  hooks: RelayHooks = {},
): Promise<RunningRelay> {
  const config = readConfig(['--testnet-node', testnetNode, '--data-dir', dataDir, '--port', '0', ...extra], env);
  return startRelay(config, { report: () => undefined, backoffMs: 50, ...hooks });
}

export const random = (length: number): string =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(length)))
    .toString('base64url')
    .slice(0, length);

export interface Call {
  readonly status: number;
  readonly body: Record<string, unknown> | null;
  readonly headers: Headers;
}

export async function call(
  url: string,
  init: { method?: string; secret?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Call> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.secret ? { authorization: `Bearer ${init.secret}` } : {}),
      ...(init.body !== undefined || init.raw !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.raw !== undefined
      ? { body: init.raw }
      : init.body !== undefined
        ? { body: JSON.stringify(init.body) }
        : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
    headers: response.headers,
  };
}

/**
 * A device registered at the relay with a fresh push subscription of the stand-in, watching these testnet principals:
 * its id and secret, and the relay's answer to the PUT.
 */
export async function registerDevice(
  relayUrl: string,
  vapidPublicKey: string,
  standIn: Pick<PushStandIn, 'subscribe'>,
  principals: readonly string[],
  /** Every watch's rules as the app sends them; the relay's defaults when left out. */
  rules?: unknown,
): Promise<{ id: string; secret: string; registered: Call; clientHash: string }> {
  const subscription = await standIn.subscribe(vapidPublicKey);
  const [id, secret] = [random(24), random(43)];
  const registered = await call(`${relayUrl}/v1/devices/${id}`, {
    method: 'PUT',
    secret,
    body: {
      subscription: { endpoint: subscription.endpoint, keys: subscription.keys },
      watches: principals.map((principal) => ({ network: 'testnet', principal, ...(rules ? { rules } : {}) })),
    },
  });
  return { id, secret, registered, clientHash: subscription.clientHash };
}

/**
 * A push as the states it tells, one per side: a push carries one alert's state, or a device's sides of one
 * transaction in one state (`otherSides`), each a state of its own alert.
 */
export function pushedSides<Alert>(text: string): { v: number; alert: Alert }[] {
  const push = JSON.parse(text) as { v: number; alert: Alert; otherSides?: Alert[] };
  return [push.alert, ...(push.otherSides ?? [])].map((alert) => ({ v: push.v, alert }));
}

/** The push service stand-in (web-push-testing): checks VAPID, decrypts, keeps what it received. */
export interface PushStandIn {
  readonly origin: string;
  subscribe(
    applicationServerKey: string,
  ): Promise<{ endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string }>;
  notifications(clientHash: string): Promise<string[]>;
  expire(clientHash: string): Promise<void>;
  close(): void;
}

export async function startPushStandIn(): Promise<PushStandIn> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [join('node_modules', 'web-push-testing', 'src', 'bin', 'server.js'), String(port)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await waitForLine(child, 'stdout', /Server running/);
  const origin = `http://localhost:${port}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json().catch(() => null)) as { data: unknown } | null;
  };
  return {
    origin,
    async subscribe(applicationServerKey) {
      const answer = await post('/subscribe', { userVisibleOnly: 'true', applicationServerKey });
      return answer?.data as { endpoint: string; keys: { p256dh: string; auth: string }; clientHash: string };
    },
    async notifications(clientHash) {
      const answer = await post('/get-notifications', { clientHash });
      return ((answer?.data as { messages?: string[] } | undefined)?.messages ?? []) as string[];
    },
    async expire(clientHash) {
      await post(`/expire-subscription/${clientHash}`, {});
    },
    close: () => void child.kill('SIGTERM'),
  };
}

export function waitForLine(child: ChildProcess, stream: 'stdout' | 'stderr', pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const source = child[stream];
    if (!source) return reject(new Error(`no ${stream} to read`));
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((candidate) => pattern.test(candidate));
      if (line) {
        source.off('data', onData);
        resolve(line);
      }
    };
    source.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}: ${seen}`)));
  });
}

/**
 * Polls until `check` answers; `ms` is a ceiling for a hang (beside the other stages a run is several times slower).
 * A check that throws is asked again (a local server's kept-alive socket closed under the request, on a loaded
 * machine): the last error is told if the ceiling comes first.
 */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    let failure: unknown = null;
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      failure = error;
    }
    if (Date.now() > until)
      throw new Error(
        `timed out waiting for ${what}${failure === null ? '' : `; the last check failed: ${String(failure)}`}`,
        {
          cause: failure,
        },
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A GET with the request line exactly as given (node:http sends `path` without normalising it; fetch would). */
export function rawGet(
  origin: string,
  path: string,
  headers: Record<string, string> = { accept: 'text/html' },
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const request = get({ hostname, port, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}
