import { toSocketIo } from '@mswjs/socket.io-binding';
import { http, HttpResponse, ws, type WebSocketHandler } from 'msw';
import { Decoder, Encoder, PacketType } from 'socket.io-parser';
import type { DevnetNode } from './node.ts';
import { laggingSender } from './feed-lag.ts';
import { invalidTopics, topicsFromQuery, type RealtimeClient, type RealtimeHub } from './realtime.ts';

const HANDSHAKE = { sid: 'devnet', upgrades: [], pingInterval: 25_000, pingTimeout: 20_000, maxPayload: 1_000_000 };
const PING_EVERY_MS = 20_000;
const encoder = new Encoder();

/** Engine.IO message framing ("4" + a Socket.IO packet) for one packet. */
const frame = (packet: Parameters<Encoder['encode']>[0]): string => `4${encoder.encode(packet)[0]}`;

/**
 * MSW handlers over the same devnet node: REST through `http`, the realtime feed through `ws` with the Socket.IO
 * binding, so that vitest tests run the real @stacks/blockchain-api-client against the devnet's model.
 */
export function devnetHandlers(node: DevnetNode, hub: RealtimeHub, origin: string) {
  const rest = http.all(`${origin}/*`, async ({ request }) => {
    if (node.isDown(new URL(request.url).pathname)) return HttpResponse.error();
    const answer = await node.handle({
      method: request.method,
      url: new URL(request.url),
      headers: Object.fromEntries(request.headers),
      body: request.method === 'POST' ? await request.text() : undefined,
    });
    const empty = answer.status === 204 || answer.status === 304;
    return new HttpResponse(empty ? null : answer.body, { status: answer.status, headers: answer.headers });
  });

  // MSW strips the Socket.IO path before matching: link the bare origin.
  const link = ws.link(origin.replace(/^http/, 'ws'));
  const live = new Set<{ close(): void }>();
  node.onDisconnectAll(() => live.forEach((connection) => connection.close()));

  const realtime: WebSocketHandler = link.addEventListener('connection', (connection) => {
    const { client } = connection;
    if (node.isDown()) {
      client.close();
      return;
    }
    const topics = topicsFromQuery(new URL(client.url).searchParams.getAll('subscriptions'));
    const invalid = invalidTopics(topics);
    if (invalid.length > 0) {
      client.send(`0${JSON.stringify(HANDSHAKE)}`);
      client.send(
        frame({ type: PacketType.CONNECT_ERROR, nsp: '/', data: { message: `Invalid topic: ${invalid.join(', ')}` } }),
      );
      return;
    }
    const io = toSocketIo(connection);
    let open = true;
    // A frame still on its way when the connection closed is lost with it.
    const later = (send: () => void) => lagging(() => open && send());
    const lagging = laggingSender(() => node.faults.faults.feedLagMs);
    // A server that is down sends nothing, even on a connection whose drop the client has not noticed yet.
    const subscriber: RealtimeClient = {
      emit: (event, ...args) => {
        if (!node.isDown()) later(() => io.client.emit(event, ...args));
      },
    };
    hub.subscribe(subscriber, topics);
    const ping = setInterval(() => client.send('2'), PING_EVERY_MS);
    const handle = { close: () => client.close() };
    live.add(handle);

    const decoder = new Decoder();
    decoder.on('decoded', (packet: { type: PacketType; id?: number; data?: unknown[] }) => {
      if (packet.type !== PacketType.EVENT || !packet.data) return;
      const [event, ...args] = packet.data;
      if (event === 'subscribe') {
        const requested = [args[0]].flat();
        // An invalid topic gets no answer at all, as on the real API.
        if (invalidTopics(requested).length > 0) return;
        hub.subscribe(subscriber, requested as string[]);
        const { id } = packet;
        if (id !== undefined) later(() => client.send(frame({ type: PacketType.ACK, nsp: '/', id, data: [null] })));
      } else if (event === 'unsubscribe') hub.unsubscribe(subscriber, args.map(String));
    });
    client.addEventListener('message', (message) => {
      if (typeof message.data === 'string' && message.data.startsWith('4')) decoder.add(message.data.slice(1));
    });
    client.addEventListener('close', () => {
      open = false;
      clearInterval(ping);
      live.delete(handle);
      hub.remove(subscriber);
    });
  });

  return [rest, realtime];
}
