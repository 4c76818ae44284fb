import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { preview, type PreviewServer } from 'vite';
import { RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../src/chain/runtime-config.ts';
import { connectFromEnvironment, contentSecurityPolicy, policyNodes } from '../src/server/csp.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface AppServer {
  readonly url: string;
  /** Serves `body` instead of the built file at `path` from now on (tests ship a "new version" this way). */
  override(path: string, body: string): void;
  /** The requests it is answering now and the last ones it answered, each with its age: what a stalled page waited on. */
  traffic(): string[];
  close(): Promise<void>;
}

/**
 * The built app (dist/) served by `vite preview`. With `runtimeConfig`, it also answers the app's runtime config
 * file, which is how `npm start` points testnet addresses at the local devnet without a special build. `connect`
 * lists more origins its policy lets the page reach (nodes a user may type in Settings), as `--connect-src` does.
 */
export async function serveApp(
  options: { host?: string; port?: number; runtimeConfig?: RuntimeConfig; connect?: readonly string[] } = {},
): Promise<AppServer> {
  const overrides = new Map<string, { type: string; body: string }>();
  const host = options.host ?? '127.0.0.1';
  const traffic = new TrafficLog();
  const connect = [
    ...(options.runtimeConfig?.devnet ? [options.runtimeConfig.devnet.url] : []),
    // The relay it names (npm start runs one): the app registers with it and reads its alerts feed.
    ...(options.runtimeConfig?.relay ? [options.runtimeConfig.relay.url] : []),
    ...(options.connect ?? []),
    ...connectFromEnvironment(),
  ];
  const policy = contentSecurityPolicy({ connect });
  if (options.runtimeConfig) {
    // As the production server tells it (served-config.ts): the nodes the policy lets the page contact.
    const served: RuntimeConfig = { ...options.runtimeConfig, allowedNodes: policyNodes(connect) };
    overrides.set(RUNTIME_CONFIG_PATH, { type: 'application/json', body: JSON.stringify(served) });
  }
  const server: PreviewServer = await preview({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    preview: { host, port: options.port ?? 0, strictPort: options.port !== undefined },
    plugins: [
      {
        name: 'stacks-watch-served-files',
        configurePreviewServer(previewServer) {
          previewServer.middlewares.use((req, res, next) => {
            traffic.track(req, res);
            res.setHeader('content-security-policy', policy);
            const path = req.url?.split('?')[0] ?? '';
            const file = overrides.get(path);
            // As the production server answers: "no config here" (vite preview would send index.html instead).
            if (!file && path === RUNTIME_CONFIG_PATH) {
              res.statusCode = 204;
              return res.end();
            }
            if (!file) return next();
            res.setHeader('content-type', file.type);
            res.setHeader('cache-control', 'no-cache');
            res.end(file.body);
          });
        },
      },
    ],
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report a port');
  return {
    url: `http://${host}:${address.port}`,
    override: (path, body) => overrides.set(path, { type: 'text/javascript', body }),
    traffic: () => traffic.lines(),
    close: () => server.close(),
  };
}

/** The requests in flight and the last 40 answered, for a test's failure message. */
class TrafficLog {
  private readonly inFlight = new Set<{ line: string; since: number }>();
  private readonly done: string[] = [];

  track(req: IncomingMessage, res: ServerResponse): void {
    const entry = { line: `${req.method ?? '?'} ${req.url ?? '?'}`, since: Date.now() };
    this.inFlight.add(entry);
    const end = (how: string) => {
      if (!this.inFlight.delete(entry)) return;
      this.done.push(
        `${new Date().toISOString()} ${entry.line} ${how} ${res.statusCode} in ${Date.now() - entry.since} ms`,
      );
      if (this.done.length > 40) this.done.shift();
    };
    res.on('finish', () => end('answered'));
    res.on('close', () => end('closed'));
  }

  lines(): string[] {
    const now = Date.now();
    return [
      ...[...this.inFlight].map((entry) => `in flight for ${now - entry.since} ms: ${entry.line}`),
      ...this.done.map((line) => `done: ${line}`),
    ];
  }
}
