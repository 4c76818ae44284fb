import {
  bufferCV,
  bufferCVFromString,
  contractPrincipalCV,
  intCV,
  listCV,
  noneCV,
  principalCV,
  responseErrorCV,
  someCV,
  stringAsciiCV,
  stringUtf8CV,
  trueCV,
  tupleCV,
  uintCV,
  type ClarityValue,
} from '@stacks/transactions';
import { describe, expect, it } from 'vitest';
import { clarityRepr } from '../../mocks/devnet/clarity-repr.ts';
import { ARG_REPR_LIMIT } from '../../src/domain/state/call-attempt.ts';
import { clarityWords } from '../../src/domain/text/clarity-words.ts';

/*
 * Clarity values printed as the node prints them (the devnet's printer: @stacks/transactions' own, with principals as
 * the quoted literals the real API's reprs hold), read back in words.
 */
const ALICE = 'ST6CXP9117KT9PAF6R7A6JCS03EPFY5Y9HESVBCS';
const naming = { party: (principal: string) => (principal === ALICE ? 'Alice' : `<${principal}>`) };
const said = (value: ClarityValue) => clarityWords(clarityRepr(value), naming);

describe('a Clarity value in words', () => {
  it('says numbers grouped, without their type marks', () => {
    expect(said(uintCV(1_000_000))).toBe('1,000,000');
    expect(said(intCV(-1234))).toBe('−1,234');
    expect(said(uintCV(0))).toBe('0');
  });

  it('names principals as the user knows them, contracts included', () => {
    expect(said(principalCV(ALICE))).toBe('Alice');
    expect(said(contractPrincipalCV(ALICE, 'demo-vault'))).toBe(`<${ALICE}.demo-vault>`);
  });

  it('says text as text, an optional by its value, nothing as none', () => {
    expect(said(someCV(bufferCVFromString('rent ☕')))).toBe('“rent ☕”');
    expect(said(stringAsciiCV('a (b) c'))).toBe('“a (b) c”');
    expect(said(stringUtf8CV('café'))).toBe('“café”');
    expect(said(noneCV())).toBe('none');
    expect(said(trueCV())).toBe('true');
  });

  it('says a key or a hash by its ends, a short buffer whole', () => {
    const key = new Uint8Array(33).map((_, index) => (index === 0 ? 2 : index * 7));
    expect(said(bufferCV(key))).toMatch(/^0x02070e…[0-9a-f]{4}$/);
    expect(said(bufferCV(new Uint8Array([0])))).toBe('0x00');
  });

  it('opens tuples, lists and responses, each part in words', () => {
    const value = tupleCV({ to: principalCV(ALICE), ustx: uintCV(2_500_000) });
    expect(said(listCV([value, value]))).toBe('[(to Alice, ustx 2,500,000), (to Alice, ustx 2,500,000)]');
    expect(said(responseErrorCV(uintCV(3)))).toBe('error 3');
  });

  it('reads what is left of a value cut short, its cut part shown as cut', () => {
    const signature = someCV(bufferCV(new Uint8Array(65).fill(0xab)));
    const printed = clarityRepr(signature);
    const cut = `${printed.slice(0, ARG_REPR_LIMIT - 1)}…`;
    expect(clarityWords(cut, naming)).toBe('0xababab…');
  });

  it('gives anything it cannot read as it was printed', () => {
    expect(clarityWords(') u1', naming)).toBe(') u1');
  });
});
