import { describe, expect, it } from 'vitest';
import { filterAddresses } from '../../src/domain/alerts/inbox-view.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const BOB = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const CAROL = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const GONE_A = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
const GONE_B = 'ST2NEB84ASENDXKYGJPQW86YXQCEFEX2ZQPG87ND';

describe('the inbox address filter’s order', () => {
  it('follows the watch list, whatever order the alerts arrived in', () => {
    const watched = [ALICE, BOB, CAROL];
    expect(filterAddresses([CAROL, ALICE, BOB, CAROL], watched)).toEqual([ALICE, BOB, CAROL]);
    expect(filterAddresses([BOB, CAROL, ALICE], watched)).toEqual([ALICE, BOB, CAROL]);
  });

  it('offers only addresses with alerts', () => {
    expect(filterAddresses([CAROL, ALICE], [ALICE, BOB, CAROL])).toEqual([ALICE, CAROL]);
  });

  it('puts addresses no longer watched last, by address, however their alerts came', () => {
    expect(filterAddresses([GONE_B, CAROL, GONE_A], [ALICE, CAROL])).toEqual([CAROL, GONE_A, GONE_B]);
    expect(filterAddresses([GONE_A, GONE_B, CAROL], [ALICE, CAROL])).toEqual([CAROL, GONE_A, GONE_B]);
  });
});
