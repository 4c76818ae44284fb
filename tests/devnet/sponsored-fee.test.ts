import { describe, expect, it } from 'vitest';
import { DevnetChain } from '../../mocks/devnet/chain.ts';
import { withTransfers } from '../../mocks/devnet/serialize-v1.ts';
import { transactionV3 } from '../../mocks/devnet/serialize-v3.ts';
import { decodeTransactionV3, decodeWithTransfers } from '../../src/chain/decode-activity.ts';
import { koinlyRows } from '../../src/domain/history/koinly-csv.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { txEffect } from '../../src/domain/state/tx-effect.ts';

/**
 * A sponsored transaction: its sponsor pays the fee, its sender only what it sends. The oracle is the devnet's ledger
 * (the balances before and after the block); the rows are the devnet's, shaped as API 9.0.2 serves them (v3
 * `balance_changes` charge the fee to the sponsor; v1 `stx_sent` counts it in the sender's, as the API does). What the
 * app makes of each row (amount, fee, counterparty, the CSV) must match the ledger for the sender, the recipient and
 * the sponsor alike.
 */
const FEE = 300n;
const AMOUNT = 2_500_000n;

describe('a sponsored STX transfer, read by its sender, its recipient and its sponsor', async () => {
  const chain = new DevnetChain('sponsored-fee', () => 1_800_000_000_000);
  const [alice, bob, carol] = chain.accounts.people.map((person) => person.address);
  const balance = (address: string) => chain.state.stx.get(address)?.balance ?? 0n;
  const before = new Map([alice!, bob!, carol!].map((address) => [address, balance(address)]));
  const entry = await chain.submit(alice!, { kind: 'stx', recipient: bob!, amount: AMOUNT, memo: '' }, FEE, {
    sponsor: carol!,
  });
  chain.mine();
  const moved = (address: string) => balance(address) - before.get(address)!;
  // JSON as the wire carries it (bigint-free).
  const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
  const readings: [string, (principal: string) => Activity][] = [
    [
      'v3 transactions',
      (principal) => decodeTransactionV3({ value: wire(transactionV3(entry, principal)), path: 'row' }, principal),
    ],
    [
      'v1 transactions_with_transfers / address-transaction',
      (principal) => decodeWithTransfers({ value: wire(withTransfers(entry, principal, 0)), path: 'row' }, principal),
    ],
  ];

  it('the ledger agrees that the sponsor paid the fee', () => {
    expect([moved(alice!), moved(bob!), moved(carol!)]).toEqual([-AMOUNT, AMOUNT, -FEE]);
  });

  for (const [shape, read] of readings)
    it(`from ${shape}: each one's amount and fee are what its balance did, the counterparties the two parties`, () => {
      for (const principal of [alice!, bob!, carol!]) {
        const activity = read(principal);
        const effect = txEffect(activity, principal);
        expect({ principal, net: activity.stxNet }).toEqual({ principal, net: moved(principal) });
        expect({ principal, fee: effect.fee }).toEqual({ principal, fee: principal === carol ? FEE : 0n });
        const stx = effect.effects.find((asset) => asset.type === 'stx')?.net ?? 0n;
        expect({ principal, stx }).toEqual({ principal, stx: moved(principal) + effect.fee });
      }
      expect(read(alice!).counterparty).toBe(bob);
      expect(read(bob!).counterparty).toBe(alice);
      expect(txEffect(read(alice!), alice!).effects[0]?.counterparties).toEqual([bob]);
    });

  it('the CSV: the sender sent the amount with no fee, the sponsor paid a fee on its own', () => {
    const row = (principal: string) =>
      koinlyRows(
        [decodeTransactionV3({ value: wire(transactionV3(entry, principal)), path: 'row' }, principal)],
        { principal, name: principal },
        { from: null, until: null },
        () => undefined,
      );
    const [sent] = row(alice!);
    expect(sent?.slice(1, 7)).toEqual(['2.5', 'STX', '', '', '', '']);
    const [cost] = row(carol!);
    expect(cost?.slice(1, 3)).toEqual(['0.0003', 'STX']);
    expect(cost?.[9]).toBe('cost');
  });
});
