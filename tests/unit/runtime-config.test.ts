import { describe, expect, it } from 'vitest';
import { readRuntimeConfig } from '../../src/chain/runtime-config.ts';

describe('the runtime config', () => {
  it('reads the devnet and the relay, each optional', () => {
    expect(readRuntimeConfig({})).toEqual({ ok: true, value: { devnet: null, relay: null } });
    expect(
      readRuntimeConfig({ devnet: { url: 'http://127.0.0.1:3999' }, relay: { url: 'http://127.0.0.1:3990' } }),
    ).toEqual({
      ok: true,
      value: { devnet: { url: 'http://127.0.0.1:3999' }, relay: { url: 'http://127.0.0.1:3990' } },
    });
  });

  it('refuses a relay URL that is not an http(s) origin, saying what is expected', () => {
    for (const url of ['ftp://relay.example', 'http://127.0.0.1:3990/path', 42]) {
      const read = readRuntimeConfig({ relay: { url } });
      expect(read).toEqual({ ok: false, error: '“relay.url” must be an http(s) origin such as http://127.0.0.1:3990' });
    }
  });
});
