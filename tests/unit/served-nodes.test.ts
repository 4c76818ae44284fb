import { describe, expect, it } from 'vitest';
import { defaultNode, nodeFor } from '../../src/chain/networks.ts';
import { readRuntimeConfig } from '../../src/chain/runtime-config.ts';
import { PUBLIC_NODES } from '../../src/chain/public-nodes.ts';

/** The nodes a deployment's server names in its runtime config become each network's default node in the app. */
describe('nodes named by the serving deployment', () => {
  it('reads each network’s node, and refuses what is not an http(s) origin of a network, saying why', () => {
    expect(
      readRuntimeConfig({
        nodes: { mainnet: { url: 'https://node.example.com' }, testnet: { url: 'http://127.0.0.1:3999' } },
      }),
    ).toEqual({
      ok: true,
      value: {
        devnet: null,
        relay: null,
        nodes: { mainnet: { url: 'https://node.example.com' }, testnet: { url: 'http://127.0.0.1:3999' } },
      },
    });
    expect(readRuntimeConfig({ nodes: { devnet: { url: 'https://node.example.com' } } })).toEqual({
      ok: false,
      error: '“nodes” names “devnet”; only “mainnet” and “testnet” are networks',
    });
    expect(readRuntimeConfig({ nodes: { mainnet: { url: 'https://node.example.com/api' } } })).toEqual({
      ok: false,
      error: '“nodes.mainnet.url” must be an http(s) origin such as https://api.example.com',
    });
    expect(readRuntimeConfig({ nodes: 'https://node.example.com' })).toMatchObject({ ok: false });
  });

  it('makes them the default nodes; a node the user chose still wins', () => {
    const config = readRuntimeConfig({ nodes: { mainnet: { url: 'https://node.example.com' } } });
    if (!config.ok) throw new Error(config.error);
    expect(defaultNode('mainnet', config.value)).toMatchObject({ url: 'https://node.example.com', apiKey: null });
    expect(defaultNode('testnet', config.value).url).toBe('https://api.testnet.hiro.so');
    const chosen = nodeFor('mainnet', config.value, { mainnet: { url: 'https://mine.example.org', apiKey: null } });
    expect(chosen.url).toBe('https://mine.example.org');
  });
});

describe('the public nodes', () => {
  it('are Hiro’s, over https, and what the app defaults to', () => {
    expect(PUBLIC_NODES).toEqual({ mainnet: 'https://api.mainnet.hiro.so', testnet: 'https://api.testnet.hiro.so' });
    const runtime = readRuntimeConfig({});
    if (!runtime.ok) throw new Error(runtime.error);
    expect(defaultNode('mainnet', runtime.value).url).toBe(PUBLIC_NODES.mainnet);
    expect(defaultNode('testnet', runtime.value).url).toBe(PUBLIC_NODES.testnet);
  });
});
