import { ChainError, type DevnetChain } from '../../../mocks/devnet/chain.ts';
import type { SeededRandom } from '../../../mocks/devnet/random.ts';
import type { Intent } from '../../../mocks/devnet/transactions.ts';
import { bondCall, stakingIntent } from './staking-traffic.ts';

const STX = 1_000_000n;
/** Of the transactions sent, the share the miners skip as problematic (Epoch 4.0), when asked for. */
const SKIPPED_SHARE = 0.04;
const MEMOS = [
  'rent',
  'coffee ☕',
  'invoice 1042',
  'thanks!',
  '',
  'payroll',
  'gm',
  'a memo of thirty-four bytes, full!',
];

/**
 * Realistic mixed traffic on the devnet chain, from a seed: STX transfers with memos, contract calls moving STX
 * either way, token transfers, mints and burns, NFT transfers and mints, failures of both abort kinds, and PoX-5
 * staking (stake, stake-update, unstake, claim-rewards) with `staking`, else the older stacking and its extension;
 * with `skip`, now and then one the miners skip as problematic.
 * Each call signs one real transaction into the mempool; refused ones (funds) are skipped.
 */
export class Traffic {
  private nextNftId = 1000n;

  constructor(
    private readonly chain: DevnetChain,
    private readonly random: SeededRandom,
    private readonly options: {
      readonly staking?: boolean;
      /** Marks some transactions for the miners to skip (problematic_skipped), by its own draws. */
      readonly skip?: SeededRandom;
    } = {},
  ) {}

  async act(): Promise<string | null> {
    const { people, treasury, vault, deployer } = this.chain.accounts;
    const { tokens, nft } = this.chain.assets;
    const { random, chain } = this;
    const from = random.pick(people);
    const to = random.pick(people.filter((person) => person !== from));
    const token = random.pick(tokens);
    const unit = 10n ** BigInt(token.decimals);
    const roll = random.next();
    let sender = from.address;
    let intent: Intent;
    if (roll < 0.25)
      intent = {
        kind: 'stx',
        recipient: to.address,
        amount: BigInt(random.int(1, 900)) * STX + BigInt(random.int(0, 999_999)),
        memo: random.pick(MEMOS),
      };
    else if (roll < 0.3) {
      sender = treasury.address;
      intent = { kind: 'stx', recipient: to.address, amount: BigInt(random.int(100, 5000)) * STX, memo: 'grant' };
    } else if (roll < 0.36)
      intent = { kind: 'vault-deposit', vault: vault.address, amount: BigInt(random.int(10, 500)) * STX };
    else if (roll < 0.42)
      intent = { kind: 'vault-withdraw', vault: vault.address, amount: BigInt(random.int(10, 300)) * STX };
    else if (roll < 0.56) {
      const amount = BigInt(random.int(1, 400)) * unit + BigInt(random.int(0, 99));
      intent = {
        kind: 'ft',
        token,
        recipient: to.address,
        amount,
        memo: random.pick(MEMOS),
        breakPostCondition: random.chance(0.1),
      };
    } else if (roll < 0.6) {
      const tooMuch = chain.state.ftBalance(from.address, token.assetIdentifier) + 1n;
      intent = { kind: 'ft', token, recipient: to.address, amount: tooMuch, memo: 'oops' };
    } else if (roll < 0.65) {
      sender = deployer.address;
      intent = { kind: 'ft-mint', token, recipient: to.address, amount: BigInt(random.int(1, 1000)) * unit };
    } else if (roll < 0.69) intent = { kind: 'ft-burn', token, amount: BigInt(random.int(1, 50)) * unit };
    else if (roll < 0.79) {
      const owned = [...chain.state.nftOwners].filter(([, owner]) => owner === from.address);
      const id = owned.length > 0 ? BigInt(random.pick(owned)[0].split('#')[1] ?? '1') : 1n;
      intent = { kind: 'nft', collection: nft, recipient: to.address, id };
    } else if (roll < 0.82) {
      sender = deployer.address;
      intent = { kind: 'nft-mint', collection: nft, recipient: to.address, id: this.nextNftId++ };
    } else if (this.options.staking && roll < 0.96) {
      // Now and then a bond's setup, registration or early exit instead.
      const bond = roll < 0.9 ? bondCall(chain, random) : null;
      if (bond) sender = bond.sender;
      intent = bond?.intent ?? stakingIntent(chain, random, from.address);
    } else if (!this.options.staking && roll < 0.86)
      intent = { kind: 'stack', amount: BigInt(random.int(1_000, 20_000)) * STX, cycles: random.int(1, 2) };
    else if (!this.options.staking && roll < 0.89) intent = { kind: 'stack-extend', cycles: 1 };
    else
      intent = {
        kind: 'stx',
        recipient: random.pick([to.address, vault.address, treasury.address]),
        amount: BigInt(random.int(1, 50)) * STX,
        memo: random.pick(MEMOS),
      };
    try {
      const entry = await chain.submit(sender, intent, BigInt(random.int(180, 3000)));
      // Drawn apart, so that a seed's traffic is the same with or without skips.
      if (this.options.skip?.chance(SKIPPED_SHARE)) chain.state.skipped.add(entry.signed.txId);
      return entry.signed.txId;
    } catch (error) {
      if (error instanceof ChainError) return null;
      throw error;
    }
  }

  /** A pox-5 call of one person (a stake when it has none), refused ones skipped. */
  async stake(staker: string): Promise<void> {
    try {
      await this.chain.submit(staker, stakingIntent(this.chain, this.random, staker));
    } catch (error) {
      if (!(error instanceof ChainError)) throw error;
    }
  }

  /** A burst of plain transfers: enough to fill more than one page of the node's mempool list. */
  async burst(count: number): Promise<void> {
    const { people } = this.chain.accounts;
    for (let i = 0; i < count; i++) {
      const from = people[i % people.length]!;
      const to = people[(i + 1) % people.length]!;
      try {
        await this.chain.submit(from.address, {
          kind: 'stx',
          recipient: to.address,
          amount: BigInt(i + 1) * 1000n,
          memo: `burst ${i}`,
        });
      } catch (error) {
        if (!(error instanceof ChainError)) throw error;
      }
    }
  }
}
