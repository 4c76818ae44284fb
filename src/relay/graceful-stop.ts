import type { Server } from 'node:http';
import type { Log } from './log.ts';

/** How long requests in flight (a device's PUT, a long answer) get to finish before their sockets are cut. */
export const CLOSE_DEADLINE_MS = 5000;

/**
 * How long a stop on PostgreSQL waits for the work under way to be stored (alerts judged, pushes in flight answered
 * and marked, leases let go) before it closes the database anyway: longer than a push's deadline (15 s) and a few
 * tries of the alert path's statements, for a database that is slow; one that vanished would hold it for ever.
 */
export const DRAIN_DEADLINE_MS = 20_000;

/**
 * Stops taking connections: idle keep-alive sockets are closed at once, requests in flight get their answer, and
 * whatever is still open after the deadline is cut, so a stop never waits on a client that keeps a socket.
 */
export async function closeServer(server: Server, deadlineMs = CLOSE_DEADLINE_MS): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), deadlineMs);
  cut.unref();
  await closed;
  clearTimeout(cut);
}

/**
 * SIGTERM (docker stop, systemd) and SIGINT (Ctrl-C) alike: `stopping`, then `close` (stop taking requests, finish
 * and record the pushes in flight, close the database), exit 0; a close that fails exits 1, saying why. A second
 * signal while that runs ends it at once, with 1. Installed before the line that says it is up: a supervisor may
 * stop it as soon as it reads it.
 */
export function stopOnSignals(close: () => Promise<void>, log: Log): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn('stopped before the end of a graceful stop', { signal });
      log.flush();
      process.exit(1);
    }
    stopping = true;
    log.info('stopping', { signal });
    close().then(
      () => {
        log.flush();
        process.exit(0);
      },
      (error: unknown) => {
        log.error('could not stop cleanly', { message: error instanceof Error ? error.message : String(error) });
        log.flush();
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
