import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { extname, join, normalize, sep } from 'node:path';
import { StartRefusal } from '../relay/start-failure.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/**
 * Vite names what it builds under assets/ by content hash: a new deployment is a new name, so those are cached
 * for a year. Everything else (index.html, sw.js, the manifest) is revalidated on each load, or an update would
 * never reach an installed app.
 */
const cacheControl = (path: string): string =>
  path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';

/** The file under `root` that `pathname` names, or null when it would leave `root` or is not a plain path. */
function fileFor(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const file = normalize(join(root, decoded));
  return file.startsWith(root.endsWith(sep) ? root : root + sep) ? file : null;
}

/** Whether the client's copy is current: one of its tags matches (weakly), or, sent no tag, it is no older. */
function notModified(headers: IncomingHttpHeaders, etag: string, modified: string): boolean {
  const tags = headers['if-none-match'];
  if (tags !== undefined) {
    const weak = (tag: string) => tag.trim().replace(/^W\//, '');
    return tags.trim() === '*' || tags.split(',').some((tag) => weak(tag) === weak(etag));
  }
  return headers['if-modified-since'] === modified;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Refuses to start on a folder that is not the built app (the wrong folder, or no build yet): every page would fail
 * while the server and its relay looked healthy.
 */
export async function requireBuiltApp(root: string): Promise<void> {
  const problem = await stat(join(root, 'index.html')).then(
    (entry) => (entry.isFile() ? null : 'has no index.html'),
    async (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOTDIR') return 'is not a folder';
      if (error.code !== 'ENOENT') return `cannot be read by the user the server runs as (${error.code})`;
      return stat(root).then(
        () => 'has no index.html',
        () => 'does not exist',
      );
    },
  );
  if (problem)
    throw new StartRefusal(
      `the app's folder ${root} ${problem}: --root (STACKS_WATCH_ROOT) must be the built app, the dist/ that ` +
        '`npm run build` makes; run npm run build in the clone, or point --root at its dist/',
    );
}

/**
 * Serves the built app from `root`; `pathname` is the request's path as read by `readRequestPath` (no dot
 * segments, no doubled or encoded slashes). A navigation (a request that accepts HTML) to a path with no file gets
 * index.html, so `/address/SP….contract` opens the app on that screen; anything else missing is a 404.
 */
export async function serveStatic(
  root: string,
  pathname: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const method = request.method;
  if (method !== 'GET' && method !== 'HEAD')
    return reply
      .code(405)
      .headers({ allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' })
      .send(`${method} is not allowed here; the app's files answer GET and HEAD.\n`);
  const wanted = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
  let file = fileFor(root, wanted);
  let served = wanted;
  if (!file || !(await isFile(file))) {
    const navigation = (request.headers.accept ?? '').includes('text/html');
    if (!navigation || !file)
      return reply
        .code(404)
        .headers({ 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' })
        .send(`Not found: ${pathname}\n`);
    file = join(root, 'index.html');
    served = '/index.html';
  }
  const { size, mtime } = await stat(file);
  const modified = mtime.toUTCString();
  // Weak: the same size and modification time, not the same bytes (a file rewritten within a second keeps its tag).
  const etag = `W/"${size.toString(16)}-${mtime.getTime().toString(16)}"`;
  reply.headers({ 'cache-control': cacheControl(served), 'last-modified': modified, etag });
  // "no-cache" files are revalidated on every load: an unchanged one costs a 304, not its bytes. If-None-Match,
  // when sent, decides alone (RFC 9110, 13.2.2).
  if (notModified(request.headers, etag, modified)) return reply.code(304).send();
  reply.code(200).headers({
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'content-length': String(size),
  });
  if (method === 'HEAD') return reply.send();
  return reply.send(createReadStream(file));
}
