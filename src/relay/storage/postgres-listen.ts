import type PgModule from 'pg';
import { dropClient, endClient } from './postgres-sockets.ts';

export interface ListenTiming {
  /** How often the idle connection is asked a `SELECT 1` (its `query_timeout` is the deadline of the answer). */
  readonly heartbeatMs: number;
  /** How long `end` waits for the server's goodbye before the socket is cut. */
  readonly endMs: number;
}

/**
 * Hears `NOTIFY channel` on a connection of its own (the pool's would be handed to other work), connected again (after
 * a pause) when it drops; `connected` runs on each reconnection, when notifications sent meanwhile may have been
 * missed. It idles between notifications, and an idle connection whose peer vanished (a host gone without a FIN, a
 * network split) says nothing for minutes, TCP keepalive's probes aside, while every notification is lost: so it is
 * asked a heartbeat every `heartbeatMs`, and one left unanswered past its deadline drops it and connects again.
 */
export async function listenOn(
  pg: typeof PgModule,
  config: PgModule.ClientConfig,
  channel: string,
  heard: (payload: string) => void,
  connected: () => void,
  report: (problem: string) => void,
  timing: ListenTiming,
): Promise<() => Promise<void>> {
  let client: PgModule.Client | null = null;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let beat: ReturnType<typeof setTimeout> | null = null;
  const open = async (): Promise<void> => {
    const opened = new pg.Client(config);
    opened.on('notification', (message) => {
      if (message.channel === channel) heard(message.payload ?? '');
    });
    const lost = (error?: Error) => {
      if (client !== opened || closed) return;
      client = null;
      if (beat) clearTimeout(beat);
      // Cut, not ended: a peer that vanished never answers a goodbye.
      dropClient(opened);
      report(`the PostgreSQL connection that hears other instances dropped${error ? `: ${error.message}` : ''}`);
      retry = setTimeout(() => void reopen(), 1_000);
    };
    opened.on('error', lost);
    opened.on('end', () => lost());
    try {
      await opened.connect();
      await opened.query(`LISTEN ${channel}`);
    } catch (error) {
      dropClient(opened);
      throw error;
    }
    client = opened;
    if (closed) return dropClient(opened);
    const heartbeat = () => {
      beat = setTimeout(() => {
        opened.query('SELECT 1').then(
          () => {
            if (client === opened && !closed) heartbeat();
          },
          (error: unknown) => lost(error instanceof Error ? error : new Error(String(error))),
        );
      }, timing.heartbeatMs);
    };
    heartbeat();
  };
  const reopen = async (): Promise<void> => {
    if (closed) return;
    try {
      await open();
      connected();
    } catch (error) {
      client = null;
      if (!closed) {
        report(`could not listen to other instances again: ${(error as Error).message}`);
        retry = setTimeout(() => void reopen(), 1_000);
      }
    }
  };
  await open();
  return async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    if (beat) clearTimeout(beat);
    if (client) await endClient(client, timing.endMs);
  };
}
