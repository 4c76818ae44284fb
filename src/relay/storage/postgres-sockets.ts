import type PgModule from 'pg';
import { settlesWithin } from '../settles-within.ts';

/**
 * Cuts a client's socket at once, without the protocol's goodbye: a peer that vanished never answers one, and ending
 * a connection waits for its answer (TCP gives up only after minutes of retransmissions).
 */
export function dropClient(client: PgModule.ClientBase): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** Ends the client, waiting at most `ms` for the server's goodbye, then cuts its socket. */
export async function endClient(client: PgModule.ClientBase & { end(): Promise<void> }, ms: number): Promise<void> {
  if (!(await settlesWithin(client.end(), ms))) dropClient(client);
}

/** What a closed database answers: nothing, ever. Work waiting on it (a retry loop) is left behind, timer-free. */
export const never = <T>(): Promise<T> => new Promise<T>(() => undefined);
