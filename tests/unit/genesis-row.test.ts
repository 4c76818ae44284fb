import { describe, expect, it } from 'vitest';
import { decodeTransactionV3, decodeWithTransfers } from '../../src/chain/decode-activity.ts';
import { alertBody, alertTitle, type TextContext } from '../../src/domain/text/alert-text.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { txEffect } from '../../src/domain/state/tx-effect.ts';
import { fixture } from '../devnet/support/fixtures.ts';

/** Rows recorded from a real node: the genesis transaction and ordinary transfers, as seen by their principals. */
type Row = {
  tx: { tx_id: string; tx_type: string; sender_address: string; token_transfer?: { recipient_address: string } };
  stx_sent: string;
  stx_received: string;
  stx_transfers: { sender?: string; recipient?: string }[];
};
const recorded = fixture('extended_v1_address_transactions_with_transfers') as { results: Row[] };

/** The row's principal: the one its `stx_transfers` credit or debit (the recording is of one address's history). */
const principalOf = (row: Row): string => {
  const party = row.stx_transfers.flatMap((t) => [t.recipient, t.sender]).find((p) => p && p !== row.tx.sender_address);
  return party ?? row.tx.sender_address;
};

const text: TextContext = { label: () => '', nameOf: () => null, token: () => undefined };
const item = (activity: Activity, principal: string): AlertItem => ({
  id: `testnet:${principal}:${activity.txId}`,
  network: 'testnet',
  principal,
  subject: activity.txId,
  phase: 'confirmed',
  activity,
  amount: null,
  at: 0,
  catchUp: false,
});

describe('a row keeps its own STX movement', () => {
  it('every recorded row: the effect on its principal is what the node said it sent and received', () => {
    expect(recorded.results.length).toBeGreaterThan(1);
    for (const [index, row] of recorded.results.entries()) {
      const principal = principalOf(row);
      const activity = decodeWithTransfers({ value: row, path: `results[${index}]` }, principal);
      const effect = txEffect(activity, principal);
      const stx = effect.effects.find((asset) => asset.type === 'stx')?.net ?? 0n;
      // The oracle is the node's own per-principal figures; the fee is never part of an effect.
      expect(stx - effect.fee, row.tx.tx_id).toBe(BigInt(row.stx_received) - BigInt(row.stx_sent));
    }
  });

  it('the genesis transaction reads as STX received, not "Sent 0 STX"', () => {
    const genesis = recorded.results.find((row) => row.tx.sender_address === 'ST000000000000000000002AMW42H');
    expect(genesis, 'the recording holds the genesis transaction').toBeDefined();
    const row = genesis!;
    const principal = principalOf(row);
    expect(principal).not.toBe(row.tx.sender_address);
    const activity = decodeWithTransfers({ value: row, path: 'genesis' }, principal);
    const title = alertTitle(item(activity, principal), text);
    const body = alertBody(item(activity, principal), text);
    expect(title).toMatch(/^Received /);
    expect(`${title} ${body}`).not.toMatch(/Sent 0/);
    expect(activity.stxNet).toBe(BigInt(row.stx_received));
  });
});

describe('a v3 row keeps its own STX movement', () => {
  const genesis = recorded.results.find((row) => row.tx.sender_address === 'ST000000000000000000002AMW42H')!;
  const principal = principalOf(genesis);
  /** The recorded genesis row in v3's shape (the recorded node, API 8.x, has no v3 routes). */
  const v3Row = {
    transaction: {
      tx_id: genesis.tx.tx_id,
      type: 'token_transfer',
      status: 'success',
      fee_rate: '0',
      sender: { address: genesis.tx.sender_address, nonce: 0 },
      block: { height: 1, tx_index: 7, time: 1_710_344_064 },
      token_transfer: { recipient: genesis.tx.token_transfer!.recipient_address, amount: '0', memo: null },
    },
    balance_changes: {
      stx: {
        sent: genesis.stx_sent,
        received: genesis.stx_received,
        net: (BigInt(genesis.stx_received) - BigInt(genesis.stx_sent)).toString(),
      },
    },
  };

  it('reads the genesis transaction as received, from no named party', () => {
    const activity = decodeTransactionV3({ value: v3Row, path: 'v3' }, principal);
    expect(alertTitle(item(activity, principal), text)).toMatch(/^Received /);
    expect(txEffect(activity, principal).effects[0]?.net).toBe(BigInt(genesis.stx_received));
    expect(activity.counterparty).toBeNull();
  });

  it('a pending transfer keeps its payload movement (the row has no figures of its own yet)', () => {
    const pending = {
      ...v3Row,
      transaction: {
        ...v3Row.transaction,
        status: 'pending',
        sender: { address: principal, nonce: 3 },
        token_transfer: { recipient: genesis.tx.sender_address, amount: '5000', memo: null },
      },
      balance_changes: { stx: { sent: '0', received: '0', net: '0' } },
    };
    const activity = decodeTransactionV3({ value: pending, path: 'pending' }, principal);
    expect(activity.status).toBe('pending');
    expect(txEffect(activity, principal).effects[0]?.net).toBe(-5000n);
  });
});
