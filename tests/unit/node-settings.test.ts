import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { nodeFor } from '../../src/chain/networks.ts';
import { testConnection } from '../../src/chain/page/test-connection.ts';
import { policyRefusal } from '../../src/chain/page/policy-refusal.ts';
import {
  networkOfChainId,
  networkOfPoxContract,
  uncheckedNetworkNote,
  wrongNetworkMessage,
} from '../../src/domain/node-network.ts';
import { checkApiKey, checkNodeBudget, checkNodeUrl } from '../../src/domain/node-settings.ts';
import { readConfig } from '../../src/relay/config.ts';

describe('node settings', () => {
  it('accept http(s) base URLs, normalised', () => {
    expect(checkNodeUrl(' https://node.example.com/ ')).toEqual({ ok: true, value: 'https://node.example.com' });
    expect(checkNodeUrl('http://127.0.0.1:3999/api/')).toEqual({ ok: true, value: 'http://127.0.0.1:3999/api' });
  });

  it.each([
    ['', /Enter the node’s address/],
    ['node.example.com', /not a web address/],
    ['ftp://node.example.com', /Only http and https nodes are supported, not ftp/],
    ['https://user:pw@node.example.com', /use the API key field/],
    ['https://node.example.com/?key=1', /Leave the query/],
  ])('refuse %j with a reason', (input, message) => {
    const result = checkNodeUrl(input);
    expect(result.ok ? '' : result.error).toMatch(message);
  });

  it('check API keys', () => {
    expect(checkApiKey('  ')).toEqual({ ok: true, value: null });
    expect(checkApiKey(' abc-123 ')).toEqual({ ok: true, value: 'abc-123' });
    expect(checkApiKey('has space')).toMatchObject({ ok: false });
    expect(checkApiKey('x'.repeat(201))).toMatchObject({ ok: false });
  });

  it('a chosen node replaces the default; a key raises the budget', () => {
    const runtime = { devnet: null };
    expect(nodeFor('mainnet', runtime, {})).toMatchObject({
      url: 'https://api.mainnet.hiro.so',
      apiKey: null,
      limits: { perMinute: 24 },
    });
    expect(nodeFor('testnet', { devnet: { url: 'http://127.0.0.1:3999' } }, {})).toMatchObject({
      url: 'http://127.0.0.1:3999',
      name: 'Local devnet',
    });
    const keyed = nodeFor('mainnet', runtime, { mainnet: { url: 'https://api.mainnet.hiro.so', apiKey: 'k' } });
    expect(keyed).toMatchObject({ apiKey: 'k', limits: { perMinute: 480 } });
    const custom = nodeFor('mainnet', runtime, { mainnet: { url: 'https://mine.example', apiKey: 'k' } });
    expect(custom).toMatchObject({ url: 'https://mine.example', apiKey: 'k', name: 'Custom node (mine.example)' });
  });

  it('paces an own node by what it is: on this device, elsewhere, or as the user set it', () => {
    const runtime = { devnet: null };
    const perMinute = (url: string, change: { apiKey?: string; perMinute?: number } = {}) =>
      nodeFor('mainnet', runtime, { mainnet: { url, apiKey: change.apiKey ?? null, ...change } }).limits.perMinute;
    expect(perMinute('http://127.0.0.1:3999')).toBe(6000);
    expect(perMinute('http://localhost:3999')).toBe(6000);
    expect(perMinute('http://[::1]:3999')).toBe(6000);
    expect(perMinute('https://stacks.mine.example')).toBe(240);
    expect(perMinute('https://api.testnet.hiro.so')).toBe(24);
    expect(perMinute('https://api.mainnet.hiro.so', { perMinute: 40 })).toBe(40);
    expect(perMinute('http://127.0.0.1:3999', { perMinute: 90 })).toBe(90);
  });

  it('paces a node on this machine alike in the page and in the relay', () => {
    const page = nodeFor('testnet', { devnet: null }, { testnet: { url: 'http://127.0.0.2:3999', apiKey: null } });
    const relay = readConfig(['--testnet-node', 'http://127.0.0.2:3999'], {}).nodes.testnet;
    expect(relay).toMatchObject({ name: 'Local node', limits: page.limits });
    expect(page.limits).toMatchObject({ maxConcurrent: 8, perMinute: 6000 });
  });

  it('checks a request budget', () => {
    expect(checkNodeBudget('  ')).toEqual({ ok: true, value: null });
    expect(checkNodeBudget(' 1,200 ')).toEqual({ ok: true, value: 1200 });
    expect(checkNodeBudget('0')).toMatchObject({ ok: false, error: /at least 1 request/ });
    expect(checkNodeBudget('12.5')).toMatchObject({ ok: false, error: /not a number of requests/ });
    expect(checkNodeBudget('6001')).toMatchObject({ ok: false, error: /At most 6,000/ });
  });
});

describe('testing a connection', () => {
  const answer = (status: number, body: string) => async () => new Response(body, { status });

  it('reports the chain tip of a Stacks API node', async () => {
    const body = JSON.stringify({
      server_version: 'stacks-blockchain-api v8',
      status: 'ready',
      chain_tip: { block_height: 42, burn_block_height: 100 },
    });
    expect(await testConnection('https://n', null, answer(200, body))).toEqual({
      ok: true,
      value: { height: 42, version: 'stacks-blockchain-api v8' },
    });
  });

  it('says what is wrong otherwise', async () => {
    const failing = async () => {
      throw new TypeError('fetch failed');
    };
    const cases: [Parameters<typeof testConnection>[2], RegExp][] = [
      [failing, /cannot be reached/],
      [answer(401, '{}'), /check the API key/],
      [answer(404, 'not found'), /answered 404 .* does not look like/],
      [answer(200, '<html>'), /not like a Stacks Blockchain API node/],
      [answer(200, '{"status":"ok"}'), /no chain tip/],
    ];
    for (const [fetchImpl, message] of cases) {
      const result = await testConnection('https://n', null, fetchImpl);
      expect(result.ok ? '' : result.error.message).toMatch(message);
    }
  });
});

describe('the network a node says it serves', () => {
  it('reads the PoX contract’s deployer: SP and SM are mainnet, ST and SN testnet', () => {
    expect(networkOfPoxContract('SP000000000000000000002Q6VF78.pox-4')).toBe('mainnet');
    expect(networkOfPoxContract('ST000000000000000000002AMW42H.pox-5')).toBe('testnet');
    expect(networkOfPoxContract(`${c32address(20, '00'.repeat(20))}.pox-4`)).toBe('mainnet');
    expect(networkOfPoxContract(`${c32address(21, '00'.repeat(20))}.pox-4`)).toBe('testnet');
    for (const value of ['SP000000000000000000002Q6VF78', 'pox-4', '', 1, null, undefined])
      expect(networkOfPoxContract(value)).toBeNull();
  });

  it('reads /v2/info’s network_id: 1 is mainnet, 0x80000000 testnet', () => {
    expect(networkOfChainId(1)).toBe('mainnet');
    expect(networkOfChainId(0x80000000)).toBe('testnet');
    for (const value of [0, 2, '1', 0x80000001, null]) expect(networkOfChainId(value)).toBeNull();
  });

  it('words a refusal with what would be right', () => {
    expect(wrongNetworkMessage('testnet', 'mainnet')).toBe(
      'This node serves testnet; the mainnet node must serve mainnet. ' +
        'Enter a mainnet node here, or set this one as the testnet node.',
    );
    expect(wrongNetworkMessage('mainnet', 'testnet')).toMatch(
      /^This node serves mainnet; the testnet node must serve testnet\./,
    );
  });
});

describe('the note beside a node kept unchecked', () => {
  it('says why, and what to make sure of; a node the app may not contact is told as that alone', () => {
    expect(uncheckedNetworkNote('mainnet', { message: 'https://n cannot be reached.' })).toBe(
      'https://n cannot be reached. Which network it serves could not be checked: make sure it is a mainnet node.',
    );
    const refusal = policyRefusal('http://127.0.0.1:3999/api');
    expect(uncheckedNetworkNote('testnet', refusal)).toBe(refusal.message);
    expect(refusal.message).not.toMatch(/Content.Security|connect-src|CSP|STACKS_WATCH/);
    expect(refusal.detail).toContain('Content-Security-Policy (connect-src) does not list http://127.0.0.1:3999;');
  });
});
