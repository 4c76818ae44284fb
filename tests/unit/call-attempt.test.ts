import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeEvents } from '../../src/chain/decode-events.ts';
import { decodeAttempt } from '../../src/chain/decode-attempt.ts';
import { besideChip, inboxState } from '../../src/domain/alerts/inbox-state.ts';
import { firstSeenRow } from '../../src/domain/alerts/since-looked.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { calledWith, failureLine, postConditionWords } from '../../src/domain/text/attempt-text.ts';
import { describeActivity, PLAIN_NAMING } from '../../src/domain/text/activity-text.ts';
import type { Naming } from '../../src/domain/text/effect-text.ts';
import { DevnetChain } from '../../mocks/devnet/chain.ts';
import { signerManagerOf } from '../../mocks/devnet/pox5-genesis.ts';
import { txJson } from '../../mocks/devnet/routes-legacy.ts';

/*
 * What a failed call tried and what a stake locked, read from the node's own answers: a recorded real one, and the
 * devnet's (whose ledger and signed transactions are the truth the words are checked against).
 */

const STX = 1_000_000n;
const recorded = JSON.parse(
  readFileSync(new URL('../fixtures/real-api/extended_v1_tx_multiple.json', import.meta.url), 'utf8'),
) as Record<string, { result: Record<string, unknown> }>;
const field = (value: unknown) => ({ value, path: '$' });

const failedActivity = (fields: Partial<Activity>): Activity => ({
  txId: `0x${'1'.repeat(64)}`,
  status: 'failed',
  kind: 'contract_call',
  counterparty: null,
  stxNet: -300n,
  fee: 300n,
  memo: null,
  contractCall: { contractId: 'ST000000000000000000002AMW42H.pox-4', functionName: 'stack-extend' },
  blockHeight: 10,
  time: 1_700_000_000,
  ...fields,
});

async function devnet() {
  const chain = new DevnetChain('call-attempt', () => 1_800_000_000_000);
  const [alice, bob] = chain.accounts.people.map((person) => person.address);
  return { chain, alice: alice!, bob: bob! };
}

describe('a failed contract call: why, and what it tried to move', () => {
  it('reads the result and arguments of a recorded real failure (a pox-4 stack-extend, (err 35))', () => {
    const tx = Object.values(recorded).find((entry) => entry.result['tx_status'] === 'abort_by_response')!.result;
    const attempt = decodeAttempt(field(tx))!;
    expect(attempt.result).toBe('(err 35)');
    expect(attempt.args.map((arg) => arg.name)).toEqual([
      'extend-count',
      'pox-addr',
      'signer-sig',
      'signer-key',
      'max-amount',
      'auth-id',
    ]);
    expect(attempt.args[0]).toEqual({ name: 'extend-count', repr: 'u1' });
    // A long value is cut, never let to widen a row.
    expect(attempt.args.every((arg) => arg.repr.length <= 80)).toBe(true);
    expect(attempt.postConditions).toEqual([]);
    const activity = failedActivity({ statusDetail: 'abort_by_response', attempt });
    // Each argument as a person reads it: numbers grouped, a tuple's entries named, a key or hash by its ends, a
    // signature cut short by its start, the largest uint as the signer's "no limit"; the exact Clarity stays in the
    // transaction's detail.
    expect(failureLine(activity, PLAIN_NAMING)).toBe(
      'Refused by the contract with error 35 · tried to stack-extend (extend-count 1, ' +
        'pox-addr (hashbytes 0x31ef5e…7818, version 0x00), signer-sig 0x81cfd4…, signer-key 0x038e3c…4a3d, ' +
        'max-amount no limit, auth-id 277,406,164,673,290)',
    );
    expect(calledWith('stack-extend', attempt)).toMatch(/^stack-extend \(extend-count u1, pox-addr \(tuple /);
  });

  it('says an amount the contract takes in micro-STX in STX', () => {
    const activity = failedActivity({
      statusDetail: 'abort_by_response',
      contractCall: { contractId: 'ST000000000000000000002AMW42H.pox-4', functionName: 'stack-stx' },
      attempt: {
        result: '(err 3)',
        args: [
          { name: 'amount-ustx', repr: 'u20423000000' },
          { name: 'lock-period', repr: 'u3' },
          { name: 'max-ustx', repr: 'none' },
          { name: 'bustx', repr: 'u7' },
        ],
        postConditions: [],
      },
    });
    expect(failureLine(activity, PLAIN_NAMING)).toBe(
      'Refused by the contract with error 3 · tried to stack-stx (amount 20,423.00 STX, lock-period 3, max-ustx none, ' +
        'bustx 7)',
    );
    // PoX's own micro-STX arguments whose names do not say so, in PoX's contracts only.
    const increase = (contractId: string, functionName: string, name: string) =>
      failureLine(
        failedActivity({
          statusDetail: 'abort_by_response',
          contractCall: { contractId, functionName },
          attempt: { result: '(err 3)', args: [{ name, repr: 'u5000000000' }], postConditions: [] },
        }),
        PLAIN_NAMING,
      );
    expect(increase('SP000000000000000000002Q6VF78.pox-4', 'stack-increase', 'increase-by')).toBe(
      'Refused by the contract with error 3 · tried to stack-increase (increase-by 5,000.00 STX)',
    );
    expect(increase('ST000000000000000000002AMW42H.pox-4', 'stack-stx', 'max-amount')).toBe(
      'Refused by the contract with error 3 · tried to stack-stx (max-amount 5,000.00 STX)',
    );
    expect(increase('ST000000000000000000002AMW42H.pox-5', 'stake-update', 'amount-increase')).toBe(
      'Refused by the contract with error 3 · tried to stake-update (amount-increase 5,000.00 STX)',
    );
    expect(increase('ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG.pool', 'deposit', 'increase-by')).toBe(
      'Refused by the contract with error 3 · tried to deposit (increase-by 5,000,000,000)',
    );
  });

  it('says a token transfer the contract refused in the token’s units, the parties by name, the memo as text', async () => {
    const { chain, alice, bob } = await devnet();
    const token = chain.assets.tokens[0]!;
    // More than the token's whole supply (21,000,000 WGOLD): the contract refuses it with (err u1).
    const amount = 22_000_000n * 10n ** 8n + 5n;
    expect([token.symbol, token.decimals, token.totalSupply < amount]).toEqual(['WGOLD', 8, true]);
    const entry = await chain.submit(alice, { kind: 'ft', token, recipient: bob, amount, memo: 'too much' });
    chain.mine();
    const mined = chain.tx(entry.signed.txId)!;
    expect(mined.state.kind === 'confirmed' && mined.state.outcome.status).toBe('abort_by_response');
    const attempt = decodeAttempt(field(JSON.parse(JSON.stringify(txJson(chain, mined)))))!;
    const activity = failedActivity({
      statusDetail: 'abort_by_response',
      contractCall: { contractId: token.contractId, functionName: 'transfer' },
      attempt,
    });
    const naming: Naming = {
      token: (asset) =>
        asset.split('::')[0] === token.contractId
          ? { name: token.name, symbol: token.symbol, decimals: token.decimals }
          : undefined,
      party: (principal) => ({ [alice]: 'Alice', [bob]: 'Bob' })[principal] ?? principal,
    };
    expect(failureLine(activity, naming)).toBe(
      'Refused by the contract with error u1 · tried to send 22,000,000.00000005 WGOLD from Alice to Bob, memo “too much”',
    );
    // The token's decimals unknown: its base units said as such, the addresses by their ends.
    const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`;
    expect(failureLine(activity, PLAIN_NAMING)).toBe(
      `Refused by the contract with error u1 · tried to send 2,200,000,000,000,005 base units of watch-gold from ${short(alice)} to ${short(bob)}, memo “too much”`,
    );
  });

  it('names the parties of any other refused call, watched ones by their labels, and its numbers plainly', async () => {
    const { chain, alice, bob } = await devnet();
    const nft = chain.assets.nft;
    // An owl nobody holds: the collection refuses to move it.
    const entry = await chain.submit(alice, { kind: 'nft', collection: nft, recipient: bob, id: 1_000_042n });
    const withdraw = await chain.submit(bob, {
      kind: 'vault-withdraw',
      vault: chain.accounts.vault.address,
      amount: 10n ** 15n,
    });
    chain.mine();
    const attemptOf = (txId: string) => {
      const mined = chain.tx(txId)!;
      expect(mined.state.kind === 'confirmed' && mined.state.outcome.status).toBe('abort_by_response');
      return decodeAttempt(field(JSON.parse(JSON.stringify(txJson(chain, mined)))))!;
    };
    const naming: Naming = {
      token: () => undefined,
      party: (principal) => (principal === alice ? 'Alice' : principal),
    };
    const owl = failedActivity({
      statusDetail: 'abort_by_response',
      contractCall: { contractId: nft.contractId, functionName: 'transfer' },
      attempt: attemptOf(entry.signed.txId),
    });
    expect(failureLine(owl, naming)).toBe(
      `Refused by the contract with error u1 · tried to transfer (id 1,000,042, sender Alice, recipient ${bob})`,
    );
    const vault = failedActivity({
      statusDetail: 'abort_by_response',
      contractCall: { contractId: chain.accounts.vault.address, functionName: 'withdraw' },
      attempt: attemptOf(withdraw.signed.txId),
    });
    expect(failureLine(vault, naming)).toBe(
      'Refused by the contract with error u1 · tried to withdraw (amount 1,000,000,000,000,000)',
    );
  });

  it('names the post-conditions the devnet signed into a transfer it aborts for them', async () => {
    const { chain, alice, bob } = await devnet();
    const token = chain.assets.tokens[0]!;
    const entry = await chain.submit(alice, {
      kind: 'ft',
      token,
      recipient: bob,
      amount: 5n * 10n ** BigInt(token.decimals),
      memo: '',
      breakPostCondition: true,
    });
    chain.mine();
    const mined = chain.tx(entry.signed.txId)!;
    expect(mined.state.kind === 'confirmed' && mined.state.outcome.status).toBe('abort_by_post_condition');
    const attempt = decodeAttempt(field(JSON.parse(JSON.stringify(txJson(chain, mined)))))!;
    expect(attempt.postConditions).toEqual([
      {
        principal: alice,
        code: 'sent_equal_to',
        type: 'ft',
        assetIdentifier: token.assetIdentifier,
        amount: 5n * 10n ** BigInt(token.decimals) - 1n,
      },
    ]);
    const naming: Naming = {
      token: (asset) =>
        asset === token.assetIdentifier
          ? { name: token.name, symbol: token.symbol, decimals: token.decimals }
          : undefined,
      party: (principal) => (principal === alice ? 'Alice' : principal),
    };
    const allowed = `Alice sends exactly 4.${'9'.repeat(Math.min(token.decimals, 2))}`;
    expect(postConditionWords(attempt.postConditions[0]!, naming)).toContain(allowed);
    const activity = failedActivity({
      statusDetail: 'abort_by_post_condition',
      contractCall: { contractId: token.contractId, functionName: 'transfer' },
      attempt,
    });
    expect(failureLine(activity, naming)).toBe(
      `Stopped by a post-condition · allowed: ${postConditionWords(attempt.postConditions[0]!, naming)}`,
    );
  });
});

describe('a pox-5 stake: the STX it locked, from pox-5’s print', () => {
  it('reads the amount the ledger locked, and the row says it', async () => {
    const { chain, alice } = await devnet();
    const entry = await chain.submit(alice, {
      kind: 'pox5-stake',
      signer: signerManagerOf(chain.accounts),
      amount: 60_000n * STX,
      cycles: 2,
      startBurnHeight: chain.tip.burnHeight + 1,
    });
    chain.mine();
    const mined = chain.tx(entry.signed.txId)!;
    const json = JSON.parse(JSON.stringify(txJson(chain, mined))) as { events: unknown };
    const { locked, movements } = decodeEvents(field(json.events));
    expect(locked).toBe(chain.state.staking.stx.get(alice)!.amount);
    expect(movements).toEqual([]);
    const activity: Activity = {
      ...failedActivity({}),
      status: 'success',
      sender: alice,
      contractCall: { contractId: 'ST000000000000000000002AMW42H.pox-5', functionName: 'stake' },
      movements,
      locked,
    };
    expect(describeActivity(activity, alice)).toBe('Staked 60,000.00 STX');
  });
});

describe('the inbox: a state chip per row, and where the "since you last looked" line goes', () => {
  it('gives a transaction’s alert its state, and news of no transaction none', () => {
    const tx = '0xabc';
    expect(inboxState({ phase: 'pending', txId: tx })).toBe('Pending');
    expect(inboxState({ phase: 'confirmed', txId: tx })).toBe('Confirmed');
    expect(inboxState({ phase: 'failed', txId: tx })).toBe('Failed');
    expect(inboxState({ phase: 'dropped', txId: tx })).toBe('Dropped');
    expect(inboxState({ phase: 'reverted', txId: tx })).toBe('Reverted');
    expect(inboxState({ phase: 'unlocked', txId: null })).toBe('Unlocked');
    expect(inboxState({ phase: 'confirmed', txId: null })).toBeNull();
    expect(inboxState({ phase: 'failed', txId: tx, statusDetail: 'problematic_skipped' })).toBe('Skipped');
  });

  it('gives staking news the chip of what it tells: STX locked or unlocked, a change of the stake, or rewards', () => {
    const chip = (subject: string, phase: 'locked' | 'unlocked') =>
      inboxState({ phase, txId: null, id: `testnet:ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4:${subject}` });
    expect(chip('stake:142:145:900', 'locked')).toBe('Locked');
    expect(chip('stake-update:146:800', 'locked')).toBe('Locked');
    expect(chip('lock:900', 'locked')).toBe('Locked');
    expect(chip('unlock:900', 'unlocked')).toBe('Unlocked');
    expect(chip('bond-matured:1', 'unlocked')).toBe('Unlocked');
    // Neither is STX being locked: an unstake shortens the lock, rewards are sBTC to claim.
    expect(chip('unstake:145:900:800', 'locked')).toBe('Staking');
    expect(chip('bond-exited:1', 'locked')).toBe('Staking');
    expect(chip('claimable:0', 'locked')).toBe('Rewards');
    expect(chip('rewards-paused', 'locked')).toBe('Rewards');
  });

  it('draws a title without the words its chip says, and keeps them for the text', () => {
    expect(besideChip('Dropped: Receiving 2.50 STX', 'Dropped')).toEqual({
      before: 'Dropped: ',
      shown: 'Receiving 2.50 STX',
      after: '',
    });
    expect(besideChip('Receiving 5.00 STX — pending', 'Pending')).toEqual({
      before: '',
      shown: 'Receiving 5.00 STX',
      after: ' — pending',
    });
    // A chip that says something else leaves the words as they are.
    expect(besideChip('Transfer failed', 'Failed')).toEqual({ before: '', shown: 'Transfer failed', after: '' });
    expect(besideChip('Received 1.25 STX', 'Confirmed').shown).toBe('Received 1.25 STX');
  });

  it('draws the line above the newest row seen before, only with news above it', () => {
    const rows = [
      { id: 'c', at: 300 },
      { id: 'b', at: 200 },
      { id: 'a', at: 100 },
    ];
    expect(firstSeenRow(rows, 250)).toBe('b');
    expect(firstSeenRow(rows, 200)).toBe('b');
    expect(firstSeenRow(rows, null)).toBeNull();
    expect(firstSeenRow(rows, 400)).toBeNull();
    expect(firstSeenRow(rows, 50)).toBeNull();
  });
});
