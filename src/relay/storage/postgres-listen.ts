import type PgModule from 'pg';

/**
 * Hears `NOTIFY channel` on a connection of its own (the pool's would be handed to other work), connected again (after
 * a pause) when it drops; `connected` runs on each reconnection, when notifications sent meanwhile may have been
 * missed. It idles between notifications, so only TCP keepalive finds a peer that vanished under it.
 */
export async function listenOn(
  pg: typeof PgModule,
  config: PgModule.ClientConfig,
  channel: string,
  heard: (payload: string) => void,
  connected: () => void,
  report: (problem: string) => void,
): Promise<() => Promise<void>> {
  let client: PgModule.Client | null = null;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const open = async (): Promise<void> => {
    const opened = new pg.Client(config);
    opened.on('notification', (message) => {
      if (message.channel === channel) heard(message.payload ?? '');
    });
    const lost = (error?: Error) => {
      if (client !== opened || closed) return;
      client = null;
      report(`the PostgreSQL connection that hears other instances dropped${error ? `: ${error.message}` : ''}`);
      retry = setTimeout(() => void reopen(), 1_000);
    };
    opened.on('error', lost);
    opened.on('end', () => lost());
    try {
      await opened.connect();
      await opened.query(`LISTEN ${channel}`);
    } catch (error) {
      await opened.end().catch(() => undefined);
      throw error;
    }
    client = opened;
    if (closed) await opened.end().catch(() => undefined);
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
    await client?.end().catch(() => undefined);
  };
}
