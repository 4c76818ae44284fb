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

/** What the privacy record is told of each request: answered, and given up on. */
async function toldOf(send: () => Promise<unknown>): Promise<{ answered?: boolean; gaveUp?: boolean }[]> {
  const told: Outbound[] = [];
  const stop = listenToOutbound((outbound) => told.push(outbound));
  await expect(send()).rejects.toThrow();
  stop();
  return told.map((outbound) =>
    outbound.via === 'http' ? { answered: outbound.answered, gaveUp: outbound.gaveUp } : {},
  );
}

describe('a request without an answer, in the privacy record', () => {
  it('is told as given up on when the host received it and the app stopped waiting (its signal in init)', async () => {
    const received: string[] = [];
    const url = `${await silentHost(received)}/extended/v1/address/ST1/balances`;
    const controller = new AbortController();
    const told = await toldOf(async () => {
      const request = sendRequest('chain', url, { signal: controller.signal });
      await expect.poll(() => received).toEqual(['/extended/v1/address/ST1/balances']);
      controller.abort(new Error('timeout'));
      return request;
    });
    expect(told).toEqual([{ answered: false, gaveUp: true }]);
  });

  it('likewise when the signal is the Request’s own, as the node client sends them', async () => {
    const received: string[] = [];
    const url = `${await silentHost(received)}/extended/v1/address/ST2/balances`;
    const controller = new AbortController();
    const told = await toldOf(async () => {
      const request = sendRequest('chain', new Request(url, { signal: controller.signal }));
      await expect.poll(() => received).toEqual(['/extended/v1/address/ST2/balances']);
      controller.abort(new Error('timeout'));
      return request;
    });
    expect(told).toEqual([{ answered: false, gaveUp: true }]);
  });

  it('is told as tried, never reached, when it was aborted before it left', async () => {
    const received: string[] = [];
    const url = `${await silentHost(received)}/extended/v1/address/ST4/balances`;
    const told = await toldOf(() => sendRequest('chain', url, { signal: AbortSignal.abort(new Error('cancelled')) }));
    expect(received).toEqual([]);
    expect(told).toEqual([{ answered: false, gaveUp: undefined }]);
  });

  it('is told as tried, never reached, when nothing took the connection', async () => {
    const received: string[] = [];
    const origin = await silentHost(received);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const told = await toldOf(() => sendRequest('chain', `${origin}/extended/v1/address/ST3/balances`));
    expect(received).toEqual([]);
    expect(told).toEqual([{ answered: false, gaveUp: undefined }]);
  });
});
