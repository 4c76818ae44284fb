import { StacksApiSocketClient } from '@stacks/blockchain-api-client';
import { io, type Socket } from 'socket.io-client';
import { afterEach, expect, it } from 'vitest';
import { fixture, shapeOf } from './fixtures.ts';
import { connected, EventLog, subscribeWithAck } from './events.ts';
import { control, type DevnetTarget } from './target.ts';

/** The realtime rules of the API's Socket.IO feed, proven against a target with the real client library. */
export function realtimeContract(target: () => DevnetTarget): void {
  const sockets: Socket[] = [];
  const people = () => target().node.chain.accounts.people;
  const person = (i: number) => () => people()[i]!.address;
  const [alice, bob] = [person(0), person(1)];
  const samples = () => fixture('realtime-samples') as Record<string, unknown[]>;

  function open(subscriptions: string[] = []): { socket: Socket; log: EventLog } {
    const client = StacksApiSocketClient.connect({
      url: target().url,
      subscriptions: subscriptions as never[],
      socketOpts: { ...target().socketOptions, reconnectionDelay: 50, reconnectionDelayMax: 200 },
    });
    sockets.push(client.socket as unknown as Socket);
    return { socket: client.socket as unknown as Socket, log: new EventLog(client.socket as unknown as Socket) };
  }

  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });

  it('refuses a connection whose handshake names an invalid topic', async () => {
    const socket = io(target().url, {
      ...target().socketOptions,
      reconnection: false,
      query: { subscriptions: 'block,address-transaction:NOT_AN_ADDRESS' },
    });
    sockets.push(socket);
    const error = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(error.message).toBe('Invalid topic: address-transaction:NOT_AN_ADDRESS');
  });

  it('acks a valid subscription and never answers an invalid one', async () => {
    const { socket } = open();
    await connected(socket);
    let invalidAnswered = false;
    socket.emit('subscribe', 'address-transaction:NOT_AN_ADDRESS', () => (invalidAnswered = true));
    socket.emit('subscribe', ['block', 'address-transaction:NOPE'], () => (invalidAnswered = true));
    // Acks come back in order: once the valid one is answered, the invalid ones would have been.
    expect(await subscribeWithAck(socket, `address-transaction:${alice()}`)).toBeNull();
    expect(await subscribeWithAck(socket, alice().toLowerCase().replace(/^/, 'address-stx-balance:'))).toBeNull();
    expect(invalidAnswered).toBe(false);
  });

  it('fires address topics only when a block confirms, in the API’s order, and re-announces the mined tx on mempool', async () => {
    const { socket, log } = open([
      'block',
      'mempool',
      `address-transaction:${alice()}`,
      `address-stx-balance:${alice()}`,
    ]);
    await connected(socket);
    expect(await subscribeWithAck(socket, [`address-transaction:${bob()}`, `address-stx-balance:${bob()}`])).toBeNull();
    const { data } = await control(target().url).post('/devnet/transfer', {
      sender: alice(),
      recipient: bob(),
      amount: '4200',
      memo: 'order',
    });
    const txId = String(data['tx_id']);
    await log.waitFor((entry) => entry.event === 'mempool');
    expect(await subscribeWithAck(socket, `transaction:${txId}`)).toBeNull();
    expect(log.names()).toEqual(['mempool']);

    await control(target().url).post('/devnet/mine', {});
    await log.waitFor((entry) => entry.event === `address-stx-balance:${bob()}`);
    expect(log.names()).toEqual([
      'mempool',
      'block',
      'mempool',
      `transaction:${txId}`,
      `address-transaction:${alice()}`,
      `address-stx-balance:${alice()}`,
      `address-transaction:${bob()}`,
      `address-stx-balance:${bob()}`,
    ]);
    const [first, , again, mined, aliceTx, aliceBalance] = log.events;
    expect(again?.args[0]).toMatchObject({ tx_id: txId, tx_status: 'pending' });
    expect(shapeOf(first?.args[0])).toEqual(shapeOf(samples()['mempool']?.[0]));
    expect(mined?.args[0]).toMatchObject({ tx_id: txId, tx_status: 'success', canonical: true });
    expect(shapeOf(log.events[1]?.args[0])).toEqual(shapeOf(samples()['block']?.[0]));
    expect(aliceTx?.args[0]).toBe(alice());
    const fee = BigInt(target().node.chain.tx(txId)!.signed.fee);
    expect(aliceTx?.args[1]).toMatchObject({
      stx_sent: String(4200n + fee),
      stx_received: '0',
      stx_transfers: [{ amount: '4200', sender: alice(), recipient: bob() }],
    });
    expect(shapeOf(aliceTx?.args[1])).toEqual(shapeOf(samples()['address-transaction/token_transfer']?.[1]));
    expect(shapeOf(aliceBalance?.args[1])).toEqual(shapeOf(samples()['address-stx-balance']?.[1]));
  });

  it('accepts a lowercase address but never fires it', async () => {
    const { socket, log } = open([`address-transaction:${bob().toLowerCase()}`, `address-transaction:${bob()}`]);
    await connected(socket);
    await control(target().url).post('/devnet/transfer', { sender: alice(), recipient: bob(), amount: '1' });
    await control(target().url).post('/devnet/mine', {});
    await log.waitFor((entry) => entry.event === `address-transaction:${bob()}`);
    expect(log.names()).toEqual([`address-transaction:${bob()}`]);
  });

  it('replays nothing to a client that connects after the fact, and recovers from a dropped connection', async () => {
    const { socket, log } = open(['block', `address-transaction:${bob()}`]);
    await connected(socket);
    const reconnected = new Promise<void>((resolve) => socket.io.once('reconnect', () => resolve()));
    const dropped = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    await control(target().url).post('/devnet/faults', { disconnect: true });
    await dropped;
    await control(target().url).post('/devnet/transfer', { sender: alice(), recipient: bob(), amount: '2' });
    const missed = await control(target().url).post('/devnet/mine', {});
    await reconnected;
    await control(target().url).post('/devnet/mine', {});
    const next = await log.waitFor((entry) => entry.event === 'block');
    expect(next.args[0]).toMatchObject({ height: Number(missed.data['height']) + 1 });
    expect(log.names()).toEqual(['block']);
  });
}
