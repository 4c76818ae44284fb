import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RelayAlert } from '../../../src/domain/relay/relay-message.ts';

/**
 * A contract-level double of the relay for the app-side tests (relay-push.spec.ts): it answers the relay's HTTP
 * contract (VAPID key, PUT/DELETE device, alerts after a cursor) with CORS for the app's origin and records what it
 * was asked, so those tests can check exactly what the app sends and control what the feed holds. It judges nothing
 * and sends no push. The real relay, end to end with a push service stand-in, is proven in relay-closed.spec.ts.
 */
export interface RelayStandIn {
  readonly url: string;
  /** Every request but CORS preflights: method, path, body. */
  readonly requests: { method: string; path: string; auth: string | null; body: unknown }[];
  /** The devices registered now, by id: their secret and last body. */
  readonly devices: Map<string, { secret: string; body: unknown }>;
  /** What the alerts feed answers (cursor order). */
  readonly feed: RelayAlert[];
  allowOrigin(origin: string): void;
  /**
   * Forgets a device as the relay does when its push service answers 404 or 410: the device, its log and its cursor
   * go; registered again under the same id, it starts a new log from cursor 0.
   */
  forget(id: string): void;
  close(): Promise<void>;
}

/** A public key's shape only (0x04 then 64 bytes); the stand-in never signs anything with it. */
const PUBLIC_KEY = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');

export async function startRelayStandIn(): Promise<RelayStandIn> {
  let origin = '';
  const requests: RelayStandIn['requests'] = [];
  const devices: RelayStandIn['devices'] = new Map();
  const feed: RelayAlert[] = [];
  let cursor = 0;

  const server = createServer((req, res) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.headers.origin === origin) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-allow-methods', 'GET, PUT, DELETE');
      res.setHeader('access-control-allow-headers', 'authorization, content-type');
      res.setHeader('vary', 'origin');
    }
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body: unknown = text ? JSON.parse(text) : null;
    const url = new URL(req.url ?? '/', 'http://relay');
    const auth = req.headers.authorization ?? null;
    requests.push({ method: req.method ?? '', path: url.pathname + url.search, auth, body });
    const json = (status: number, value: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (req.method === 'GET' && url.pathname === '/v1/vapid-public-key') return json(200, { publicKey: PUBLIC_KEY });
    const match = /^\/v1\/devices\/([A-Za-z0-9_-]{22,64})(\/alerts)?$/.exec(url.pathname);
    if (!match) return json(404, { error: 'not-found', message: `no route ${req.method} ${url.pathname}` });
    const [, id = '', alerts] = match;
    const secret = auth?.replace(/^Bearer /, '') ?? '';
    const known = devices.get(id);
    if (known && known.secret !== secret) return json(401, { error: 'unauthorized', message: 'wrong secret' });
    if (req.method === 'PUT' && !alerts) {
      devices.set(id, { secret, body });
      const count = (body as { watches: unknown[] }).watches.length;
      return json(known ? 200 : 201, { deviceId: id, watches: count, cursor: String(cursor) });
    }
    if (!known) return json(401, { error: 'unauthorized', message: 'wrong secret' });
    if (req.method === 'DELETE' && !alerts) {
      devices.delete(id);
      return void res.writeHead(204).end();
    }
    if (req.method === 'GET' && alerts) {
      const after = Number(url.searchParams.get('after') ?? '0');
      const page = feed.filter((alert) => Number(alert.cursor) > after);
      return json(200, { alerts: page, next: page.at(-1)?.cursor ?? String(after), more: false });
    }
    return json(405, { error: 'method', message: `${req.method} is not allowed here` });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    devices,
    feed: new Proxy(feed, {
      set(target, key, value) {
        if (key !== 'length') cursor = Math.max(cursor, Number((value as RelayAlert).cursor));
        return Reflect.set(target, key, value);
      },
    }),
    allowOrigin: (next) => (origin = next),
    forget(id) {
      devices.delete(id);
      feed.length = 0;
      cursor = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
