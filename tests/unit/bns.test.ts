import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { resolveBnsName } from '../../src/chain/bns.ts';

const OWNER = c32address(22, 'ab'.repeat(20));
const answer = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status });

describe('resolving a BNS name', () => {
  it('gives the owner’s canonical principal', async () => {
    const result = await resolveBnsName(
      'https://node',
      'muneeb.btc',
      'mainnet',
      answer(200, { address: OWNER.toLowerCase(), blockchain: 'stacks' }),
    );
    expect(result).toMatchObject({ ok: true, value: { principal: OWNER, network: 'mainnet' } });
  });

  it('says when no one owns the name, or the node is unreachable, or answers nonsense', async () => {
    expect(
      await resolveBnsName(
        'https://node',
        'nobody.btc',
        'mainnet',
        answer(404, { error: 'cannot find name nobody.btc' }),
      ),
    ).toEqual({
      ok: false,
      error: 'No one owns the name nobody.btc on mainnet.',
    });
    const offline = async () => {
      throw new TypeError('fetch failed');
    };
    expect(await resolveBnsName('https://node', 'a.btc', 'mainnet', offline)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/could not be reached/),
    });
    expect(await resolveBnsName('https://node', 'a.btc', 'testnet', answer(200, { address: OWNER }))).toMatchObject({
      ok: false,
      error: 'The node gave no valid testnet address for a.btc.',
    });
  });
});
