import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { DevnetRequest } from './http-kit.ts';
import { DevnetNode, type DevnetOptions } from './node.ts';
import { RealtimeHub } from './realtime.ts';
import { attachSocketIo } from './socketio-server.ts';

export interface RunningDevnet {
  readonly node: DevnetNode;
  readonly hub: RealtimeHub;
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 64 * 1024;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The devnet as a real HTTP + Socket.IO server on one port, as a Stacks Blockchain API node serves them. */
export async function startDevnet(
  options: DevnetOptions & { host?: string; port?: number } = {},
): Promise<RunningDevnet> {
  const node = new DevnetNode(options);
  const hub = new RealtimeHub(node.chain);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://devnet.local');
    // A node that is down answers nothing: the connection is cut, as a refused or reset one.
    if (node.isDown(url.pathname)) {
      request.socket.destroy();
      return;
    }
    void (async () => {
      const devnetRequest: DevnetRequest = {
        method: request.method ?? 'GET',
        url,
        headers: request.headers as Record<string, string | undefined>,
        body: request.method === 'POST' ? await readBody(request) : undefined,
      };
      const answer = await node.handle(devnetRequest);
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    })().catch((error: unknown) => {
      console.error('devnet: request failed', error);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'internal devnet error' }));
    });
  });
  const { io, dropAll } = attachSocketIo(
    server,
    hub,
    () => node.isDown(),
    () => node.faults.faults.feedLagMs,
  );
  node.onDisconnectAll(dropAll);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3999, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the devnet did not get a port');
  node.life.start();
  return {
    node,
    hub,
    server,
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    async close() {
      node.close();
      hub.close();
      await io.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
