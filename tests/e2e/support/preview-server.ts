import { fileURLToPath } from 'node:url';
import { preview, type PreviewServer } from 'vite';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface AppServer {
  readonly url: string;
  /** Serves `body` instead of the built file at `path` from now on (to ship a "new version" of the app). */
  override(path: string, body: string): void;
  close(): Promise<void>;
}

/**
 * The built app (dist/) served by `vite preview`, as `npm start` serves it, on a free port: each test file gets its
 * own origin, hence its own service worker and storage.
 */
export async function startAppServer(): Promise<AppServer> {
  const overrides = new Map<string, string>();
  const server: PreviewServer = await preview({
    root: ROOT,
    configFile: false,
    logLevel: 'silent',
    preview: { host: '127.0.0.1', port: 0 },
    plugins: [
      {
        name: 'test-overrides',
        configurePreviewServer(previewServer) {
          previewServer.middlewares.use((req, res, next) => {
            const body = req.url ? overrides.get(req.url.split('?')[0] ?? '') : undefined;
            if (body === undefined) return next();
            res.setHeader('content-type', 'text/javascript');
            res.setHeader('cache-control', 'no-cache');
            res.end(body);
          });
        },
      },
    ],
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report a port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    override: (path, body) => overrides.set(path, body),
    close: () => server.close(),
  };
}
