import { ChainError, type DevnetChain } from './chain.ts';
import { StakingLife } from './life-staking.ts';
import { SeededRandom } from './random.ts';
import type { Intent } from './transactions.ts';

const STX = 1_000_000n;
const MEMOS = ['rent', 'coffee ☕', 'invoice 1042', 'thanks!', '', 'payroll', 'gm'];

/**
 * The demo node's life: a block every `blockMs`, and between blocks believable activity among the demo accounts.
 * The sequence of actions depends only on the seed.
 */
export class ChainLife {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly random: SeededRandom;
  private readonly activity: boolean;
  private readonly staking: StakingLife;
  private blockMs: number | null;

  constructor(
    private readonly chain: DevnetChain,
    options: { blockMs: number | null; activity: boolean },
    private readonly onError: (error: unknown) => void = (error) => console.error(error),
  ) {
    this.random = new SeededRandom(`${chain.seed}/life`);
    this.blockMs = options.blockMs;
    this.activity = options.activity;
    this.staking = new StakingLife(chain);
  }

  get interval(): number | null {
    return this.blockMs;
  }

  /** Changes the block interval; null pauses mining. */
  setBlockMs(blockMs: number | null): void {
    this.blockMs = blockMs;
    this.stop();
    this.schedule();
  }

  start(): void {
    this.schedule();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.blockMs === null || this.timer) return;
    const blockMs = this.blockMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick(blockMs).finally(() => this.schedule());
    }, blockMs);
  }

  private async tick(blockMs: number): Promise<void> {
    try {
      this.chain.mine();
      if (!this.activity) return;
      // Activity lands between blocks, so it sits in the mempool until the next one confirms it.
      await new Promise((resolve) => setTimeout(resolve, Math.min(blockMs / 3, 500)));
      const count = this.random.int(0, 3);
      for (let i = 0; i < count; i++) await this.act();
      await this.staking.step();
    } catch (error) {
      this.onError(error);
    }
  }

  /** One believable action; refused ones (not enough funds) are simply skipped. */
  async act(): Promise<void> {
    const { people, treasury, vault } = this.chain.accounts;
    const { tokens, nft } = this.chain.assets;
    const from = this.random.pick(people);
    const to = this.random.pick(people.filter((person) => person !== from));
    const roll = this.random.next();
    const memo = this.random.pick(MEMOS);
    let sender = from.address;
    let intent: Intent;
    if (roll < 0.35)
      intent = { kind: 'stx', recipient: to.address, amount: BigInt(this.random.int(1, 2500)) * STX, memo };
    else if (roll < 0.45) {
      sender = treasury.address;
      intent = { kind: 'stx', recipient: to.address, amount: BigInt(this.random.int(100, 5000)) * STX, memo: 'grant' };
    } else if (roll < 0.5)
      intent = {
        kind: 'stx',
        recipient: vault.address,
        amount: BigInt(this.random.int(10, 500)) * STX,
        memo: 'deposit',
      };
    else if (roll < 0.55)
      intent = { kind: 'vault-withdraw', vault: vault.address, amount: BigInt(this.random.int(10, 300)) * STX };
    else if (roll < 0.72) {
      const token = this.random.pick(tokens);
      const amount = BigInt(this.random.int(1, 400)) * 10n ** BigInt(token.decimals);
      intent = { kind: 'ft', token, recipient: to.address, amount, memo, breakPostCondition: this.random.chance(0.08) };
    } else if (roll < 0.8) {
      const token = this.random.pick(tokens);
      const tooMuch = this.chain.state.ftBalance(from.address, token.assetIdentifier) + 1n;
      intent = { kind: 'ft', token, recipient: to.address, amount: tooMuch, memo: 'oops' };
    } else if (roll < 0.9) {
      const owned = [...this.chain.state.nftOwners].filter(([, owner]) => owner === from.address);
      const id = owned.length > 0 ? BigInt(this.random.pick(owned)[0].split('#')[1] ?? '1') : 1n;
      intent = { kind: 'nft', collection: nft, recipient: to.address, id };
    } else if (roll < 0.94)
      intent = { kind: 'stack', amount: BigInt(this.random.int(10_000, 40_000)) * STX, cycles: this.random.int(1, 3) };
    else {
      const pending = this.chain.pending();
      const victim = pending.length > 0 ? this.random.pick(pending) : null;
      if (victim) await this.chain.replaceByFee(victim.signed.txId);
      return;
    }
    try {
      await this.chain.submit(sender, intent, BigInt(this.random.int(180, 2000)));
    } catch (error) {
      if (!(error instanceof ChainError)) throw error;
    }
  }
}
