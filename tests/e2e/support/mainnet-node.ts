import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A mainnet node as far as Settings asks one: `/extended` (the API's status, shaped as the recorded one) and the core
 * node's `/v2/pox`, whose PoX contract the mainnet boot address deployed. The devnet is testnet-like; this is the
 * other network, on loopback. CORS open to any origin, as the real API's.
 */
export interface MainnetNodeStandIn {
  readonly url: string;
  /** Paths asked, in order. */
  readonly asked: string[];
  close(): Promise<void>;
}

const ANSWERS: Record<string, unknown> = {
  '/extended': {
    server_version: 'stacks-blockchain-api v9.0.2 (mainnet stand-in)',
    status: 'ready',
    chain_tip: { block_height: 6_100_000, burn_block_height: 960_400 },
  },
  '/v2/pox': {
    contract_id: 'SP000000000000000000002Q6VF78.pox-4',
    first_burnchain_block_height: 666_050,
    current_burnchain_block_height: 960_400,
    reward_cycle_length: 2100,
  },
};

export async function startMainnetNodeStandIn(): Promise<MainnetNodeStandIn> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://stand-in').pathname;
    asked.push(path);
    response.setHeader('access-control-allow-origin', '*');
    const body = ANSWERS[path];
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
