import type { Socket } from 'socket.io-client';

export interface Recorded {
  readonly event: string;
  readonly args: unknown[];
}

/** Records every event a socket receives, in order, and lets a test wait for one. */
export class EventLog {
  readonly events: Recorded[] = [];
  private waiters: { match: (entry: Recorded) => boolean; resolve: (entry: Recorded) => void }[] = [];

  constructor(socket: Socket) {
    socket.onAny((event: string, ...args: unknown[]) => {
      const entry = { event, args };
      this.events.push(entry);
      this.waiters = this.waiters.filter((waiter) => (waiter.match(entry) ? (waiter.resolve(entry), false) : true));
    });
  }

  /** Resolves with the first matching event, already received or still to come. */
  waitFor(match: (entry: Recorded) => boolean, timeoutMs = 5000): Promise<Recorded> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching event within ${timeoutMs} ms; got ${this.names().join(', ')}`)),
        timeoutMs,
      );
      this.waiters.push({ match, resolve: (entry) => (clearTimeout(timer), resolve(entry)) });
    });
  }

  names(): string[] {
    return this.events.map((entry) => entry.event);
  }
}

export const connected = (socket: Socket): Promise<void> =>
  socket.connected
    ? Promise.resolve()
    : new Promise((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });

/** Emits `subscribe` and resolves with the error the ack carries (null when accepted). */
export function subscribeWithAck(socket: Socket, topic: string | string[]): Promise<string | null> {
  return new Promise((resolve) => socket.emit('subscribe', topic, (error: string | null) => resolve(error)));
}
