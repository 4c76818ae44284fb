import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listenToOutbound, sendRequest } from '../../src/chain/outbound.ts';
import type { Outbound } from '../../src/domain/privacy/disclosure.ts';

let server: Server | null = null;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = null;
});

/** A loopback host that reads each request and never answers: what it received is the oracle. */
async function silentHost(received: string[]): Promise<string> {
  server = createServer((request) => void received.push(request.url ?? ''));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function told(): { list: Outbound[]; stop: () => void } {
  const list: Outbound[] = [];
  return { list, stop: listenToOutbound((outbound) => list.push(outbound)) };
}

describe('a request given up on, in the privacy record', () => {
  it('is told as sent when the host received it and the app stopped waiting', async () => {
    const received: string[] = [];
    const origin = await silentHost(received);
    const record = told();
    const controller = new AbortController();
    const request = sendRequest('chain', `${origin}/extended/v1/address/ST1/balances`, {
      signal: controller.signal,
    });
    await expect.poll(() => received).toEqual(['/extended/v1/address/ST1/balances']);
    controller.abort(new Error('timeout'));
    await expect(request).rejects.toThrow();
    record.stop();
    expect(record.list.map((outbound) => outbound.via === 'http' && outbound.answered)).toEqual([true]);
  });

  it('is told as tried without an answer when nothing took the connection', async () => {
    const received: string[] = [];
    const origin = await silentHost(received);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const record = told();
    await expect(sendRequest('chain', `${origin}/extended/v1/address/ST1/balances`)).rejects.toThrow();
    record.stop();
    expect(received).toEqual([]);
    expect(record.list.map((outbound) => outbound.via === 'http' && outbound.answered)).toEqual([false]);
  });
});
