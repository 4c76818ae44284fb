import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { principalsTouchedBy, type TouchingTx } from '../../src/domain/chain/touched-principals.ts';

type Answer = Record<string, { found: boolean; result: TouchingTx }>;
const read = (name: string): Answer =>
  JSON.parse(readFileSync(new URL(`../fixtures/real-api/${name}.json`, import.meta.url), 'utf8')) as Answer;

const recorded = read('extended_v1_tx_multiple');
const derived = read('extended_v1_tx_multiple_derived');
const tx = (answer: Answer, prefix: string): TouchingTx => {
  const key = Object.keys(answer).find((id) => id.startsWith(prefix));
  if (!key) throw new Error(`no transaction ${prefix}… in the fixture`);
  return answer[key]!.result;
};

const ALICE = 'ST2PGGD0ZXAWEMY4EZ025RD1X47EEVH287SQKA8BC';
const BOB = 'ST1HB1T8WRNBYB0Y3T7WXZS38NKKPTBR3EG9EPJKR';
const CAROL = 'ST18MDW2PDTBSCR1ACXYRJP2JX70FWNM6YY2VX4SS';
const DEPLOYER = 'STF9B75ADQAVXQHNEQ6KGHXTG7JP305J2GRWF3A2';

describe('principals a transaction touches (recorded payloads)', () => {
  it('an STX transfer touches its sender and its recipient, once each', () => {
    expect(principalsTouchedBy(tx(recorded, '0x1d4e'))).toEqual([ALICE, BOB]);
  });

  it('a stacking call touches its sender, the PoX contract and whoever the lock is for', () => {
    const stacking = tx(recorded, '0xaf43');
    const touched = principalsTouchedBy(stacking);
    expect(touched[0]).toBe(stacking.sender_address);
    expect(touched).toContain(stacking.contract_call!.contract_id);
    const lock = stacking.events!.find((event) => event.event_type === 'stx_lock') as {
      stx_lock_event: { locked_address: string };
    };
    expect(touched).toContain(lock.stx_lock_event.locked_address);
  });

  it('a failed contract call (no events) still touches its sender and the contract it called', () => {
    const failed = tx(recorded, '0xeb7d');
    expect(principalsTouchedBy(failed)).toEqual([failed.sender_address, failed.contract_call!.contract_id]);
  });

  it('a pending transfer (mempool shape, no events) touches its sender and its recipient', () => {
    const pending = tx(recorded, '0x4939');
    expect(principalsTouchedBy(pending)).toEqual([pending.sender_address, pending.token_transfer!.recipient_address]);
  });
});

describe('principals a transaction touches (payloads derived from the API 9.0.2 source)', () => {
  it('a sponsored transfer touches its sponsor as well', () => {
    expect(principalsTouchedBy(tx(derived, '0xa1a1'))).toEqual([ALICE, CAROL, BOB]);
  });

  it('an NFT transfer touches the collection and both owners', () => {
    expect(principalsTouchedBy(tx(derived, '0xb2b2'))).toEqual([ALICE, `${DEPLOYER}.stacks-watch-nft`, BOB]);
  });

  it('a token payout from a contract touches the paying contract and each recipient, a mint no empty sender', () => {
    expect(principalsTouchedBy(tx(derived, '0xc3c3'))).toEqual([ALICE, `${DEPLOYER}.vault`, CAROL]);
  });

  it('a PoX-5 stake touches the staker, pox-5 and the signer its print names', () => {
    expect(principalsTouchedBy(tx(derived, '0xd4d4'))).toEqual([
      ALICE,
      'ST000000000000000000002AMW42H.pox-5',
      `${DEPLOYER}.signer-manager`,
    ]);
  });

  it("an ordinary contract's print touches no one it names", () => {
    expect(principalsTouchedBy(tx(derived, '0xe5e5'))).not.toContain(CAROL);
  });
});
