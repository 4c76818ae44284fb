import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { addressInInput } from '../../src/domain/address/address-in-link.ts';

const MAINNET = c32address(22, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const TESTNET = c32address(26, 'c1'.repeat(20));
const CONTRACT = `${MAINNET}.arkadiko-token`;

describe('addressInInput', () => {
  it('takes an address as typed, spaces a copy picked up dropped', () => {
    expect(addressInInput(` ${MAINNET.slice(0, 4)} ${MAINNET.slice(4)}\n`)).toEqual({ text: MAINNET, source: 'typed' });
    expect(addressInInput('alice.btc')).toEqual({ text: 'alice.btc', source: 'typed' });
  });

  it("reads a wallet's payment URI without its amount or memo", () => {
    for (const uri of [
      `stacks:${MAINNET}?amount=1000000`,
      `web+stacks://${MAINNET}`,
      ` STX:${MAINNET} `,
      `stacks:${MAINNET}#memo`,
    ])
      expect(addressInInput(uri)).toEqual({ text: MAINNET, source: 'payment link' });
  });

  it("reads an explorer's link to an address or a contract, in its path, fragment or query", () => {
    for (const [link, text] of [
      [`https://explorer.hiro.so/address/${TESTNET}?chain=testnet`, TESTNET],
      [`https://explorer.hiro.so/txid/${CONTRACT}?chain=mainnet`, CONTRACT],
      [`http://localhost:3000/#/address/${MAINNET}`, MAINNET],
      [`https://example.org/watch?who=${encodeURIComponent(MAINNET)}`, MAINNET],
      // A wrong address in a link is still read out, for the parser to say what is wrong with it.
      [`https://explorer.hiro.so/address/${MAINNET.slice(0, -1)}Q`, `${MAINNET.slice(0, -1)}Q`],
    ] as const)
      expect(addressInInput(link)).toEqual({ text, source: 'web link' });
  });

  it('says a web link holds no address when none of its parts is one', () => {
    expect(addressInInput(`https://explorer.hiro.so/txid/0x${'ab'.repeat(32)}`)).toEqual({
      text: null,
      source: 'web link',
    });
    expect(addressInInput('https://explorer.hiro.so/')).toEqual({ text: null, source: 'web link' });
  });

  it('leaves what is no link to the parser (it names the characters an address cannot hold)', () => {
    expect(addressInInput('http//broken')).toEqual({ text: 'http//broken', source: 'typed' });
  });
});
