import { readFileSync } from 'node:fs';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readNodeNetwork } from '../../src/chain/page/node-network.ts';
import { devnetHandlers } from '../../mocks/devnet/msw.ts';
import { DevnetNode } from '../../mocks/devnet/node.ts';
import { RealtimeHub } from '../../mocks/devnet/realtime.ts';

/**
 * Which network a node typed in Settings serves, asked over the network stand-ins: the devnet (testnet-like), a
 * mainnet node answering as the core node's routes do, and the real API recorded without its core node.
 */
const DEVNET = 'http://devnet.test:3999';
const OTHER = 'http://node.test:3999';
const node = new DevnetNode({ blockMs: null });
const hub = new RealtimeHub(node.chain);
const server = setupServer(...devnetHandlers(node, hub, DEVNET));
const asked: string[] = [];

/** Recorded from the real API (v8.13.6) with no core node behind it: every `/v2/…` route answers this. */
const NO_CORE_NODE = {
  body: JSON.parse(
    readFileSync(new URL('../fixtures/real-api/proxy_v2_info_without_stacks_node.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>,
  status: 500,
};

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  server.events.on('request:start', ({ request }) => asked.push(new URL(request.url).pathname));
});
afterEach(() => {
  server.resetHandlers();
  asked.length = 0;
});
afterAll(() => {
  server.close();
  hub.close();
  node.close();
});

describe('the network a node serves', () => {
  it('is testnet for the devnet, read from its /v2/pox contract alone', async () => {
    expect(await readNodeNetwork(DEVNET, null)).toEqual({ kind: 'serves', network: 'testnet' });
    expect(asked).toEqual(['/v2/pox']);
  });

  it('is mainnet for a node whose PoX contract is deployed by the mainnet boot address', async () => {
    server.use(
      http.get(`${OTHER}/v2/pox`, () => HttpResponse.json({ contract_id: 'SP000000000000000000002Q6VF78.pox-4' })),
    );
    expect(await readNodeNetwork(OTHER, null)).toEqual({ kind: 'serves', network: 'mainnet' });
  });

  it('is read from /v2/info’s network_id when /v2/pox does not tell', async () => {
    for (const [networkId, network] of [
      [1, 'mainnet'],
      [0x80000000, 'testnet'],
    ] as const) {
      server.use(
        http.get(`${OTHER}/v2/pox`, () => HttpResponse.json({ error: 'not found' }, { status: 404 })),
        http.get(`${OTHER}/v2/info`, () => HttpResponse.json({ network_id: networkId, parent_network_id: 3 })),
      );
      expect(await readNodeNetwork(OTHER, null)).toEqual({ kind: 'serves', network });
    }
    expect(asked).toEqual(['/v2/pox', '/v2/info', '/v2/pox', '/v2/info']);
  });

  it('is unchecked, with the answers, for an API whose core node is away', async () => {
    server.use(http.get(`${OTHER}/v2/*`, () => HttpResponse.json(NO_CORE_NODE.body, { status: NO_CORE_NODE.status })));
    expect(await readNodeNetwork(OTHER, null)).toEqual({
      kind: 'unchecked',
      trouble: {
        message: `${OTHER} answered, but not with the network it serves.`,
        detail: 'Its /v2/pox answered 500; its /v2/info answered 500.',
      },
    });
  });

  it('is unchecked for answers that name no Stacks network', async () => {
    server.use(
      http.get(`${OTHER}/v2/pox`, () => HttpResponse.json({ contract_id: 'not a principal' })),
      http.get(`${OTHER}/v2/info`, () => HttpResponse.json({ network_id: '1' })),
    );
    const read = await readNodeNetwork(OTHER, null);
    expect(read).toMatchObject({
      kind: 'unchecked',
      trouble: {
        detail:
          'Its /v2/pox answered 200 without a known contract_id; its /v2/info answered 200 without a known network_id.',
      },
    });
  });

  it('is unchecked, saying why, for a node that cannot be reached or refuses the key', async () => {
    server.use(http.get(`${OTHER}/v2/pox`, () => HttpResponse.error()));
    expect(await readNodeNetwork(OTHER, null)).toMatchObject({
      kind: 'unchecked',
      trouble: { message: expect.stringMatching(/^http:\/\/node\.test:3999 cannot be reached: check the address/) },
    });
    server.use(http.get(`${OTHER}/v2/pox`, () => new HttpResponse(null, { status: 401 })));
    expect(await readNodeNetwork(OTHER, 'wrong-key')).toMatchObject({
      kind: 'unchecked',
      trouble: { message: `${OTHER} refused the request (401): check the API key.` },
    });
  });

  it('sends the API key to the node it asks', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.get(`${OTHER}/v2/pox`, ({ request }) => {
        keys.push(request.headers.get('x-api-key'));
        return HttpResponse.json({ contract_id: 'ST000000000000000000002AMW42H.pox-5' });
      }),
    );
    expect(await readNodeNetwork(OTHER, 'key-123')).toEqual({ kind: 'serves', network: 'testnet' });
    expect(keys).toEqual(['key-123']);
  });
});
