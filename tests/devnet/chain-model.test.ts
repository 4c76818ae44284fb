import { describe, expect, it } from 'vitest';
import { DevnetChain } from '../../mocks/devnet/chain.ts';
import { CYCLE_BURN_BLOCKS } from '../../mocks/devnet/ledger.ts';
import { ChainLife } from '../../mocks/devnet/life.ts';
import { signIntent } from '../../mocks/devnet/transactions.ts';

const fresh = (seed = 'model-test') => new DevnetChain(seed, () => 1_800_000_000_000);
const status = (chain: DevnetChain, txId: string) => {
  const state = chain.tx(txId)?.state;
  return state?.kind === 'confirmed' ? state.outcome.status : state?.kind === 'dropped' ? state.status : state?.kind;
};

describe('the devnet chain model', () => {
  it('is deterministic: a seed gives the same accounts and, driven the same way, the same transaction ids', async () => {
    const [a, b] = [fresh('same'), fresh('same')];
    expect(a.accounts.all.map((account) => account.address)).toEqual(b.accounts.all.map((account) => account.address));
    expect(fresh('other').accounts.people[0]!.address).not.toBe(a.accounts.people[0]!.address);
    const [lifeA, lifeB] = [
      new ChainLife(a, { blockMs: null, activity: true }),
      new ChainLife(b, { blockMs: null, activity: true }),
    ];
    for (let i = 0; i < 30; i++) {
      await lifeA.act();
      await lifeB.act();
      if (i % 5 === 4) [a, b].forEach((chain) => chain.mine());
    }
    const ids = (chain: DevnetChain) =>
      [...chain.pending(), ...chain.transactionsOf(chain.accounts.people[0]!.address)].map(
        (entry) => entry.signed.txId,
      );
    expect(ids(a).length).toBeGreaterThan(0);
    expect(ids(a)).toEqual(ids(b));
  });

  it('takes transactions signed ahead, each sender’s nonces in order, and refuses one out of order', async () => {
    const chain = fresh();
    const [alice, bob] = chain.accounts.people;
    const first = chain.nextNonce(alice!.address);
    const transfer = (nonce: number) =>
      signIntent(
        chain.signer(alice!.address),
        { kind: 'stx', recipient: bob!.address, amount: 5n, memo: '' },
        nonce,
        300n,
      );
    const [one, two, skipped] = await Promise.all([transfer(first), transfer(first + 1), transfer(first + 3)]);
    chain.submitSigned(one);
    expect(() => chain.submitSigned(skipped)).toThrow(`signed nonce ${first + 3}; the next is ${first + 1}`);
    chain.submitSigned(two);
    chain.mine();
    expect([status(chain, one.txId), status(chain, two.txId), status(chain, skipped.txId)]).toEqual([
      'success',
      'success',
      undefined,
    ]);
  });

  it('has the demo accounts: testnet single-sig, a 2-of-3 multi-sig and a contract principal', () => {
    const { people, treasury, vault } = fresh().accounts;
    expect(people.every((person) => person.address.startsWith('ST'))).toBe(true);
    expect(treasury.address.startsWith('SN')).toBe(true);
    expect(vault.address).toMatch(/^ST[0-9A-Z]+\.demo-vault$/);
  });

  it('keeps transfers pending until a block, then charges the fee and moves the amount', async () => {
    const chain = fresh();
    const [alice, bob] = chain.accounts.people;
    const before = chain.state.available(alice!.address);
    const entry = await chain.submit(
      alice!.address,
      { kind: 'stx', recipient: bob!.address, amount: 1_000n, memo: 'x' },
      200n,
    );
    expect(entry.signed.txId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(status(chain, entry.signed.txId)).toBe('pending');
    chain.mine();
    expect(status(chain, entry.signed.txId)).toBe('success');
    expect(chain.state.available(alice!.address)).toBe(before - 1_200n);
  });

  it('mines each sender’s nonces in order, from the multi-sig treasury too', async () => {
    const chain = fresh();
    const { treasury, people } = chain.accounts;
    const first = await chain.submit(treasury.address, {
      kind: 'stx',
      recipient: people[0]!.address,
      amount: 5n,
      memo: '',
    });
    const second = await chain.submit(treasury.address, {
      kind: 'stx',
      recipient: people[1]!.address,
      amount: 6n,
      memo: '',
    });
    expect([first.signed.nonce, second.signed.nonce]).toEqual([0, 1]);
    const block = chain.mine();
    expect(block.txIds).toEqual([first.signed.txId, second.signed.txId]);
    expect(chain.state.nonce(treasury.address)).toBe(2);
  });

  it('aborts by response a token transfer beyond the balance, and by post-condition when one is violated', async () => {
    const chain = fresh();
    const [alice, bob] = chain.accounts.people;
    const token = chain.assets.tokens[0]!;
    const balance = chain.state.ftBalance(alice!.address, token.assetIdentifier);
    const tooMuch = await chain.submit(alice!.address, {
      kind: 'ft',
      token,
      recipient: bob!.address,
      amount: balance + 1n,
      memo: '',
    });
    const broken = await chain.submit(alice!.address, {
      kind: 'ft',
      token,
      recipient: bob!.address,
      amount: 5n,
      memo: '',
      breakPostCondition: true,
    });
    chain.mine();
    expect(status(chain, tooMuch.signed.txId)).toBe('abort_by_response');
    expect(status(chain, broken.signed.txId)).toBe('abort_by_post_condition');
    expect(chain.state.ftBalance(alice!.address, token.assetIdentifier)).toBe(balance);
    expect(chain.transactionsOf(bob!.address)).toEqual([]);
  });

  it('locks stacked STX and unlocks them at the burn height', async () => {
    const chain = fresh();
    const dave = chain.accounts.people[3]!.address;
    const entry = await chain.submit(dave, { kind: 'stack', amount: 10_000n, cycles: 1 });
    chain.mine();
    expect(status(chain, entry.signed.txId)).toBe('success');
    const account = chain.state.stx.get(dave)!;
    expect(account.locked).toBe(10_000n);
    expect(account.burnUnlockHeight).toBe(chain.tip.burnHeight + CYCLE_BURN_BLOCKS);
    for (let i = 0; i < CYCLE_BURN_BLOCKS; i++) chain.mine();
    expect(chain.state.stx.get(dave)!.locked).toBe(0n);
  });

  it('replace-by-fee drops the old transaction and keeps the nonce', async () => {
    const chain = fresh();
    const [alice, bob] = chain.accounts.people;
    const old = await chain.submit(alice!.address, { kind: 'stx', recipient: bob!.address, amount: 9n, memo: '' });
    const replacement = await chain.replaceByFee(old.signed.txId);
    expect(chain.tx(old.signed.txId)?.state).toEqual({
      kind: 'dropped',
      status: 'dropped_replace_by_fee',
      replacedBy: replacement.signed.txId,
    });
    expect(replacement.signed.nonce).toBe(old.signed.nonce);
    chain.mine();
    expect(status(chain, replacement.signed.txId)).toBe('success');
  });

  it('rolls balances back on a re-org', async () => {
    const chain = fresh();
    const [alice, bob] = chain.accounts.people;
    const before = chain.state.available(bob!.address);
    await chain.submit(alice!.address, { kind: 'stx', recipient: bob!.address, amount: 50_000n, memo: '' });
    chain.mine();
    expect(chain.state.available(bob!.address)).toBe(before + 50_000n);
    chain.reorg(1);
    expect(chain.state.available(bob!.address)).toBe(before);
  });

  it('its life produces varied activity: transfers, tokens, NFTs, failures and drops', async () => {
    const chain = fresh('lively');
    const life = new ChainLife(chain, { blockMs: null, activity: true });
    let drops = 0;
    chain.subscribe((event) => (drops += event.type === 'dropped' ? 1 : 0));
    for (let i = 0; i < 200; i++) {
      await life.act();
      if (i % 4 === 3) chain.mine();
    }
    chain.mine();
    const all = chain.accounts.all.flatMap((account) => chain.transactionsOf(account.address));
    const kinds = new Set(all.map((entry) => entry.signed.intent.kind));
    const outcomes = new Set(all.map((entry) => (entry.state.kind === 'confirmed' ? entry.state.outcome.status : '')));
    expect([...kinds].sort()).toEqual(['ft', 'nft', 'stack', 'stx', 'vault-withdraw']);
    expect([...outcomes].sort()).toEqual(['abort_by_post_condition', 'abort_by_response', 'success']);
    expect(drops).toBeGreaterThan(0);
    // Whatever entered the mempool and was not dropped is confirmed by the next block.
    expect(chain.pending()).toEqual([]);
    expect(
      all.some(
        (entry) => entry.signed.intent.kind === 'stx' && entry.signed.sender === chain.accounts.treasury.address,
      ),
    ).toBe(true);
  });
});
