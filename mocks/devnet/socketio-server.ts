import type { Server as HttpServer } from 'node:http';
import { Server } from 'socket.io';
import { laggingSender } from './feed-lag.ts';
import { invalidTopics, topicsFromQuery, type RealtimeClient, type RealtimeHub } from './realtime.ts';

const queryValues = (value: string | string[] | undefined): string[] => (value === undefined ? [] : [value].flat());

/** A real Socket.IO server on the devnet's port, with the API's handshake, subscribe and unsubscribe rules. */
export function attachSocketIo(
  httpServer: HttpServer,
  hub: RealtimeHub,
  isDown: () => boolean = () => false,
  lagMs: () => number = () => 0,
): { io: Server; dropAll(): void } {
  const io = new Server(httpServer, { cors: { origin: '*' }, pingInterval: 5000, pingTimeout: 5000 });

  io.use((socket, next) => {
    const invalid = invalidTopics(topicsFromQuery(queryValues(socket.handshake.query['subscriptions'])));
    next(invalid.length > 0 ? new Error(`Invalid topic: ${invalid.join(', ')}`) : undefined);
  });

  io.on('connection', (socket) => {
    // During an outage a connection is cut as soon as it opens: the client sees a drop and retries.
    if (isDown()) {
      socket.conn.close();
      return;
    }
    const later = laggingSender(lagMs);
    // A server that is down sends nothing, even on a connection whose drop the client has not noticed yet.
    const client: RealtimeClient = {
      emit: (event, ...args) => void (isDown() || later(() => socket.emit(event, ...args))),
    };
    hub.subscribe(client, topicsFromQuery(queryValues(socket.handshake.query['subscriptions'])));
    socket.on('subscribe', (topic: unknown, ack?: (error: string | null) => void) => {
      const topics = [topic].flat();
      // An invalid topic gets no answer at all, as on the real API.
      if (invalidTopics(topics).length > 0) return;
      hub.subscribe(client, topics as string[]);
      if (typeof ack === 'function') later(() => ack(null));
    });
    socket.on('unsubscribe', (...topics: unknown[]) => hub.unsubscribe(client, topics.map(String)));
    socket.on('disconnect', () => hub.remove(client));
  });

  return {
    io,
    // Closing the transport (not a server-side disconnect) looks like a network drop: clients reconnect.
    dropAll: () => io.sockets.sockets.forEach((socket) => socket.conn.close()),
  };
}
