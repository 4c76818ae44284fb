import { describe, expect, it } from 'vitest';
import { alertBody, alertTitle, type TextContext } from '../../src/domain/text/alert-text.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import type { Activity, Movement } from '../../src/domain/state/snapshot.ts';
import { isOutgoing, txEffect } from '../../src/domain/state/tx-effect.ts';
import { viaWords } from '../../src/domain/text/effect-text.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const BOB = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const VAULT = `${BOB}.demo-vault`;
const GOLD = `${BOB}.watch-gold::gold`;

const stx = (sender: string | null, recipient: string | null, amount: bigint): Movement => ({
  type: 'stx',
  assetIdentifier: 'STX',
  kind: sender === null ? 'mint' : recipient === null ? 'burn' : 'transfer',
  sender,
  recipient,
  amount,
});
const gold = (sender: string | null, recipient: string | null, amount: bigint): Movement => ({
  ...stx(sender, recipient, amount),
  type: 'ft',
  assetIdentifier: GOLD,
});

const call = (functionName: string, movements: Movement[], change: Partial<Activity> = {}): Activity => ({
  txId: '0x01',
  status: 'success',
  kind: 'contract_call',
  counterparty: VAULT,
  stxNet: 0n,
  fee: 1_081n,
  memo: null,
  contractCall: { contractId: functionName.includes('transfer') ? GOLD.split('::')[0]! : VAULT, functionName },
  blockHeight: 10,
  time: 1_700_000_000,
  sender: ALICE,
  nonce: 4,
  movements,
  ...change,
});

const text: TextContext = {
  label: (principal) => (principal === ALICE ? 'Alice' : principal === VAULT ? 'Vault contract' : ''),
  nameOf: (principal) => (principal === BOB ? 'bob.btc' : null),
  token: (asset) =>
    asset.startsWith(GOLD.split('::')[0]!) ? { name: 'Watch Gold', symbol: 'WGOLD', decimals: 8 } : undefined,
};
const item = (activity: Activity, phase: AlertItem['phase'] = 'confirmed'): AlertItem => ({
  id: `testnet:${ALICE}:${activity.txId}`,
  network: 'testnet',
  principal: ALICE,
  subject: activity.txId,
  phase,
  activity,
  amount: null,
  at: 0,
  catchUp: false,
});

describe('what a transaction did to an address', () => {
  it('takes the direction from its own net movement, not from who signed', () => {
    const withdraw = call('withdraw', [stx(VAULT, ALICE, 84_000_000n)]);
    const effect = txEffect(withdraw, ALICE);
    expect(effect.signed).toBe(true);
    expect(isOutgoing(effect)).toBe(false);
    expect(alertTitle(item(withdraw), text)).toBe('Received 84.00 STX · fee 0.001081 STX');
    expect(alertBody(item(withdraw), text)).toBe('Alice\nFrom Vault contract · via demo-vault.withdraw');
  });

  it('says a token amount with its decimals and symbol, and names the recipient, not the token contract', () => {
    const sent = call('transfer', [gold(ALICE, BOB, 29_200_000_000n)]);
    expect(alertTitle(item(sent), text)).toBe('Sent 292.00 WGOLD · fee 0.001081 STX');
    expect(alertBody(item(sent), text)).toContain('To bob.btc · via watch-gold.transfer');
    const unknown = { ...text, token: () => undefined };
    expect(alertTitle(item(sent), unknown)).toBe('Sent 29,200,000,000 base units of gold · fee 0.001081 STX');
  });

  it('names mints and burns, and a call that moved nothing', () => {
    const minted = call('mint', [gold(null, ALICE, 100_000_000n)], { sender: BOB });
    expect(alertTitle(item(minted), text)).toBe('Minted 1.00 WGOLD');
    const burned = call('burn', [gold(ALICE, null, 500_000_000n)]);
    expect(alertTitle(item(burned), text)).toBe('Burned 5.00 WGOLD · fee 0.001081 STX');
    expect(alertTitle(item(call('stack-stx', [])), text)).toBe('Called demo-vault.stack-stx · fee 0.001081 STX');
    expect(alertTitle(item(call('stack-stx', []), 'pending'), text)).toBe('Calling demo-vault.stack-stx — pending');
  });

  it('keeps the fee apart and tells several assets at once', () => {
    const swap = call('swap', [stx(ALICE, VAULT, 10_000_000n), gold(VAULT, ALICE, 300_000_000n)]);
    expect(alertTitle(item(swap), text)).toBe('Sent 10.00 STX and 1 more · fee 0.001081 STX');
    expect(alertTitle(item(swap, 'reverted'), text)).toBe('Reverted: Sent 10.00 STX and 1 more');
    const failed = call('withdraw', [], { status: 'failed' });
    expect(alertTitle(item(failed, 'failed'), text)).toBe('Failed: demo-vault.withdraw · fee 0.001081 STX');
    expect(alertTitle(item(failed, 'reverted'), text)).toBe('Reverted: Failed: demo-vault.withdraw');
  });
});

describe("the chain's own PoX calls", () => {
  const pox = (name: string, functionName: string, deployer = 'ST000000000000000000002AMW42H', change = {}) =>
    call(functionName, [], { contractCall: { contractId: `${deployer}.${name}`, functionName }, ...change });

  it('are told by what they do: a stake, a stake update, an unstake, and pox-4 stacking in older history', () => {
    expect(alertTitle(item(pox('pox-5', 'stake'), 'pending'), text)).toBe('Staking STX — pending');
    expect(alertTitle(item(pox('pox-5', 'stake')), text)).toBe('Staked STX · fee 0.001081 STX');
    expect(alertTitle(item(pox('pox-5', 'stake-update')), text)).toBe('Updated stake · fee 0.001081 STX');
    expect(alertTitle(item(pox('pox-5', 'unstake')), text)).toBe('Unstake requested · fee 0.001081 STX');
    const mainnet = 'SP000000000000000000002Q6VF78';
    expect(alertTitle(item(pox('pox-4', 'stack-stx', mainnet)), text)).toBe('Stacked STX · fee 0.001081 STX');
    expect(alertTitle(item(pox('pox-4', 'delegate-stx', mainnet), 'pending'), text)).toBe('Delegating STX — pending');
  });

  it("tell a bond's steps: joining it, an exit before term, bonded sBTC taken back", () => {
    expect(alertTitle(item(pox('pox-5', 'register-for-bond'), 'pending'), text)).toBe(
      'Registering for a bond — pending',
    );
    expect(alertTitle(item(pox('pox-5', 'announce-l1-early-exit')), text)).toBe(
      'Announced a bond exit · fee 0.001081 STX',
    );
    const failed = pox('pox-5', 'unstake-sbtc', undefined, { status: 'failed' });
    expect(alertTitle(item(failed, 'failed'), text)).toBe('Bond sBTC withdrawal failed · fee 0.001081 STX');
    expect(viaWords(pox('pox-5', 'unstake-sbtc').contractCall!)).toBe('bond sBTC withdrawal');
  });

  it('say which act failed, and name a call the app has no words for', () => {
    const failed = pox('pox-5', 'unstake', undefined, { status: 'failed' });
    expect(alertTitle(item(failed, 'failed'), text)).toBe('Unstake failed · fee 0.001081 STX');
    expect(alertTitle(item(pox('pox-4', 'stack-aggregation-commit')), text)).toBe(
      'Called pox-4.stack-aggregation-commit · fee 0.001081 STX',
    );
  });

  it("are the boot deployer's only: a contract anyone deploys as pox-5 is told by its name", () => {
    expect(alertTitle(item(pox('pox-5', 'stake', BOB)), text)).toBe('Called pox-5.stake · fee 0.001081 STX');
    expect(alertTitle(item(pox('pox-5', 'stake', BOB, { status: 'failed' }), 'failed'), text)).toBe(
      'Failed: pox-5.stake · fee 0.001081 STX',
    );
  });
});
