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

  it('refuses a relay URL it cannot use, saying why', () => {
    expect(readRuntimeConfig({ relay: { url: 'ftp://relay.example' } })).toEqual({
      ok: false,
      error: '“relay.url” is not usable: A relay is reached over https, not ftp.',
    });
    expect(readRuntimeConfig({ relay: { url: 42 } })).toMatchObject({
      ok: false,
      error: /^“relay\.url” is not usable: /,
    });
    // A relay may live under a path of its host.
    expect(readRuntimeConfig({ relay: { url: 'https://relay.example/watch/' } })).toMatchObject({ ok: true });
  });
});
