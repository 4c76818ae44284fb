import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenPush {
  readonly path: string;
  readonly ttl: string | undefined;
  readonly urgency: string | undefined;
  readonly topic: string | undefined;
  readonly status: number;
}

/**
 * A loopback stand-in for a push service's front door: records each push's headers, answers some with a chosen
 * status (429 with Retry-After, 503), and hands the rest to web-push-testing, which checks VAPID and decrypts.
 */
export class PushProxy {
  readonly seen: SeenPush[] = [];
  /** Statuses to answer with next, in order, before forwarding again. */
  readonly refusals: { status: number; retryAfter?: string }[] = [];
  /** While set, every push is answered with this (an outage of the push service). */
  down: { status: number; retryAfter?: string } | null = null;
  /**
   * Topics of pushes the relay gave up waiting for (it closed the connection before the answer was written): the
   * service may have taken them, and the relay sends them again.
   */
  readonly abandoned = new Set<string>();
  private server: Server | null = null;
  origin = '';

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('close', () => {
        const topic = request.headers['topic'];
        if (!response.writableFinished && typeof topic === 'string') this.abandoned.add(topic);
      });
      request.on('end', () => {
        const headers = request.headers;
        const record = (status: number) =>
          this.seen.push({
            path: request.url ?? '',
            ttl: headers['ttl'] as string | undefined,
            urgency: headers['urgency'] as string | undefined,
            topic: headers['topic'] as string | undefined,
            status,
          });
        const refusal = this.down ?? this.refusals.shift();
        if (refusal) {
          record(refusal.status);
          response.writeHead(refusal.status, refusal.retryAfter ? { 'retry-after': refusal.retryAfter } : {});
          response.end();
          return;
        }
        const forwarded: Record<string, string> = {};
        for (const [name, value] of Object.entries(headers))
          if (typeof value === 'string' && name !== 'host' && name !== 'connection') forwarded[name] = value;
        void fetch(`${this.target}${request.url}`, { method: 'POST', headers: forwarded, body: Buffer.concat(chunks) })
          .then(async (answer) => {
            record(answer.status);
            response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
            response.end(Buffer.from(await answer.arrayBuffer()));
          })
          .catch(() => {
            record(502);
            response.writeHead(502);
            response.end();
          });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The stand-in's endpoint, reached through this proxy. */
  endpointFor(endpoint: string): string {
    const url = new URL(endpoint);
    return `${this.origin}${url.pathname}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server?.closeAllConnections();
      this.server?.close(() => resolve());
    });
  }
}
