import { createServer, connect, type Server, type Socket } from 'node:net';

interface Link {
  readonly client: Socket;
  readonly server: Socket | null;
  /** Passes nothing more either way, and never will: its peer is gone for good. */
  silent: boolean;
}

/**
 * A TCP stand-in between the relay and PostgreSQL, on loopback: it passes bytes both ways until told otherwise.
 *
 * - `vanish()`: the database host is gone without a FIN. Every open connection goes silent (what the relay sends is
 *   swallowed, nothing comes back, nothing is closed), and new connections are accepted and never answered.
 * - `loseCommitAnswers()`: the network loses what the server sends after a COMMIT: the COMMIT reaches the server
 *   (which commits), then its connection goes silent, so the relay never learns that it committed.
 * - `restore()`: new connections reach the server again; the silent ones stay silent.
 *
 * A silent connection the relay closes is not closed towards the server, as a vanished peer never tells it either: the
 * server's own limits (idle_in_transaction_session_timeout) end its session. Nor is the relay's goodbye answered (no
 * FIN comes back): a connection it ends waits, as one to a vanished host does, until it cuts its socket.
 */
export class VanishingPeer {
  private readonly links = new Set<Link>();
  private mode: 'passing' | 'vanished' | 'losing-commit-answers' = 'passing';
  private server: Server | null = null;
  /** Connections that went silent right after a COMMIT passed. */
  commitsLost = 0;

  constructor(private readonly upstreamPort: number) {}

  async start(): Promise<number> {
    // Half-open allowed: a FIN from the relay is answered only by a peer that is still there.
    const server = createServer({ allowHalfOpen: true }, (client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  vanish(): void {
    this.mode = 'vanished';
    for (const link of this.links) link.silent = true;
  }

  loseCommitAnswers(): void {
    this.mode = 'losing-commit-answers';
  }

  restore(): void {
    this.mode = 'passing';
  }

  async close(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.server?.destroy();
    }
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private accept(client: Socket): void {
    const silent = this.mode === 'vanished';
    const link: Link = { client, server: silent ? null : connect(this.upstreamPort, '127.0.0.1'), silent };
    this.links.add(link);
    client.on('error', () => undefined);
    link.server?.on('error', () => undefined);
    client.on('data', (chunk: Buffer) => {
      if (link.silent) return;
      link.server?.write(chunk);
      // A simple-protocol COMMIT (pg sends `query('COMMIT')` as one): it reaches the server, its answer does not.
      if (this.mode === 'losing-commit-answers' && chunk.includes('COMMIT\0')) {
        link.silent = true;
        this.commitsLost += 1;
      }
    });
    link.server?.on('data', (chunk: Buffer) => {
      if (!link.silent) client.write(chunk);
    });
    // Kept in `links` once closed: close() ends the server's side of the silent ones.
    client.on('end', () => {
      if (link.silent) return;
      link.server?.end();
      client.end();
    });
    client.on('close', () => {
      if (!link.silent) link.server?.end();
    });
    link.server?.on('close', () => {
      if (!link.silent) client.end();
    });
  }
}
