import { describe, expect, it } from 'vitest';
import { decodeMempoolV1 } from '../../src/chain/decode-activity.ts';
import { alertFacts } from '../../src/domain/alerts/alert-facts.ts';
import { readAlertFacts } from '../../src/domain/alerts/alert-facts-read.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { pairWords } from '../../src/domain/alerts/transfer-pair.ts';
import { txEffect } from '../../src/domain/state/tx-effect.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { describeActivity, describeParties } from '../../src/domain/text/activity-text.ts';
import { alertBody, alertTitle, naming, type TextContext } from '../../src/domain/text/alert-text.ts';
import { DevnetChain } from '../../mocks/devnet/chain.ts';
import { mempoolTransaction } from '../../mocks/devnet/serialize-v1.ts';

/*
 * A token's transfer while it waits in the mempool is told by what it would move, read from its arguments as the node
 * lists it: the devnet's mempool answer, its signed transaction the truth the words are checked against.
 */

async function pendingTransfer() {
  const chain = new DevnetChain('pending-token-words', () => 1_800_000_000_000);
  const [carol, bob] = chain.accounts.people.map((person) => person.address) as [string, string];
  const token = chain.assets.tokens.find((candidate) => candidate.symbol === 'WGOLD')!;
  const amount = 292n * 10n ** 8n;
  const entry = await chain.submit(carol, { kind: 'ft', token, recipient: bob, amount, memo: 'gold' });
  // The node's mempool answer, as the app reads it.
  const raw = JSON.parse(JSON.stringify(mempoolTransaction(entry))) as unknown;
  const decode = (principal: string) => decodeMempoolV1({ value: raw, path: '$' }, principal);
  const labels: Record<string, string> = { [carol]: 'Carol', [bob]: 'Bob' };
  const context: TextContext = {
    label: (principal) => labels[principal] ?? '',
    nameOf: () => null,
    token: (asset) =>
      asset.split('::')[0] === token.contractId
        ? { name: token.name, symbol: token.symbol, decimals: token.decimals }
        : undefined,
  };
  return { chain, entry, token, carol, bob, decode, context };
}

const itemOf = (principal: string, activity: Activity, phase: AlertItem['phase'] = 'pending'): AlertItem => ({
  id: `testnet:${principal}:${activity.txId}`,
  network: 'testnet',
  principal,
  subject: activity.txId,
  phase,
  activity,
  amount: null,
  at: 1_800_000_000_000,
  catchUp: false,
});

describe('a pending token transfer says what it moves', () => {
  it('to its sender: “Sending 292.00 WGOLD — pending”, to whom, through which call, the fee', async () => {
    const { entry, token, carol, decode, context } = await pendingTransfer();
    // The ledger's record of what was signed.
    const intent = entry.signed.intent;
    expect(intent.kind === 'ft' && [intent.amount, intent.token.symbol]).toEqual([292n * 10n ** 8n, 'WGOLD']);
    const activity = decode(carol);
    expect(activity.status).toBe('pending');
    const item = itemOf(carol, activity);
    expect(alertTitle(item, context)).toBe('Sending 292.00 WGOLD — pending');
    const fee = `${entry.signed.fee / 1_000_000n}.${(entry.signed.fee % 1_000_000n).toString().padStart(6, '0')}`;
    expect(alertBody(item, context)).toBe(
      `Carol\nTo Bob · via ${token.contractId.split('.')[1]}.transfer\nFee ${fee.replace(/0+$/, '')} STX`,
    );
    // The address page's row, in the same words.
    expect(describeActivity(activity, carol, naming(context))).toBe('Sending 292.00 WGOLD — pending');
    expect(describeParties(activity, carol, naming(context))).toBe('To Bob · via watch-gold.transfer');
  });

  it('to its recipient, should a feed tell it: “Receiving 292.00 WGOLD — pending”, from whom', async () => {
    const { bob, decode, context } = await pendingTransfer();
    const item = itemOf(bob, decode(bob));
    expect(alertTitle(item, context)).toBe('Receiving 292.00 WGOLD — pending');
    expect(alertBody(item, context).split('\n').slice(0, 2)).toEqual(['Bob', 'From Carol · via watch-gold.transfer']);
  });

  it('moves nothing yet: what the app judges and counts is still nothing but the fee', async () => {
    const { carol, decode } = await pendingTransfer();
    expect(txEffect(decode(carol), carol).effects).toEqual([]);
  });

  it('between two watched addresses, leads with the amount: “292.00 WGOLD · Carol → Bob — pending”', async () => {
    const { carol, decode, context } = await pendingTransfer();
    const item = itemOf(carol, decode(carol));
    const own = { title: alertTitle(item, context), body: alertBody(item, context) };
    const pair = pairWords(item, naming(context), (principal) => context.label(principal) !== '', own);
    expect(pair?.title).toBe('292.00 WGOLD · Carol → Bob — pending');
    expect(pair?.body.split('\n')[0]).toBe('via watch-gold.transfer');
  });

  it('dropped, says what it would have moved', async () => {
    const { chain, entry, carol, context } = await pendingTransfer();
    chain.drop(entry.signed.txId, 'dropped_stale_garbage_collect');
    const raw = JSON.parse(JSON.stringify(mempoolTransaction(chain.tx(entry.signed.txId)!))) as unknown;
    const activity = decodeMempoolV1({ value: raw, path: '$' }, carol);
    expect(activity.status).toBe('dropped');
    expect(alertTitle(itemOf(carol, activity, 'dropped'), context)).toBe('Dropped: Sending 292.00 WGOLD');
  });

  it('reaches another device in its alert’s facts (a relay’s push), and is worded there the same', async () => {
    const { carol, decode, context } = await pendingTransfer();
    const item = itemOf(carol, decode(carol));
    const facts = readAlertFacts(JSON.parse(JSON.stringify(alertFacts(item))));
    expect(facts.ok).toBe(true);
    const read = facts.ok ? facts.value.activity! : null;
    expect(alertTitle(itemOf(carol, read!), context)).toBe('Sending 292.00 WGOLD — pending');
  });

  it('refuses facts whose arguments are not what a call prints, saying which', () => {
    const bad = { subject: '0x1', activity: null, amount: null, recalled: false };
    const activity = {
      txId: '0x1',
      status: 'pending',
      kind: 'contract_call',
      counterparty: null,
      stxNet: '0',
      fee: '1',
      memo: null,
      contractCall: null,
      blockHeight: null,
      time: 1,
      args: [{ name: 'amount', repr: 5 }],
    };
    const read = readAlertFacts({ ...bad, activity });
    expect(read.ok ? null : read.error).toBe('facts.activity.args[0].repr must be a string of at most 80 characters');
  });
});
