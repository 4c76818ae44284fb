import { ChainError, type DevnetChain } from './chain.ts';
import { signerManagerOf } from './pox5-genesis.ts';
import { isPox5Intent } from './pox5-intents.ts';
import { cycleOf, cycleStart, bondFirstCycle } from './pox5.ts';
import { derivedHex } from './random.ts';
import type { Intent } from './transactions.ts';

const STX = 1_000_000n;
const SATS = 100_000_000n;
/** The demo's bond opens at the third PoX-5 cycle of the chain, so that Dave can enrol before it runs. */
const DEMO_BOND_INDEX = 1;

/**
 * The demo chain's staking, played by the accounts as a script (no randomness: the same blocks, the same calls):
 * Alice stakes and claims her sBTC every other cycle, Bob stakes, extends and unstakes in turn, Dave enrols in a
 * BTC bond that runs, claims its rewards every fourth cycle, and unlocks. So within a few minutes of `npm start` a staker has rewards to claim.
 */
export class StakingLife {
  constructor(private readonly chain: DevnetChain) {}

  async step(): Promise<void> {
    const { people, deployer } = this.chain.accounts;
    const [alice, bob, , dave] = people;
    const burnHeight = this.chain.tip.burnHeight;
    const cycle = cycleOf(burnHeight);
    const book = this.chain.state.staking;
    const signer = signerManagerOf(this.chain.accounts);
    const staked = (address: string) => book.activeStake(address, burnHeight + 1);
    // A lock of any kind (an old pox-4 one too) must end before a new stake can be made.
    const unlocked = (address: string) => (this.chain.state.stx.get(address)?.locked ?? 0n) === 0n;

    if (alice && !staked(alice.address) && unlocked(alice.address))
      await this.send(alice.address, {
        kind: 'pox5-stake',
        signer,
        amount: 60_000n * STX,
        cycles: 3,
        startBurnHeight: burnHeight + 1,
      });
    // A wallet does not offer a claim while pox-5 refuses every one (rewards paused).
    else if (alice && cycle % 2 === 0 && !book.paused && this.claimable(alice.address) > 0n)
      await this.send(alice.address, { kind: 'pox5-claim', signer, rewardCycle: cycle - 1 });

    const bobs = bob && staked(bob.address);
    if (bob && !bobs && unlocked(bob.address))
      await this.send(bob.address, {
        kind: 'pox5-stake',
        signer,
        amount: 70_000n * STX,
        cycles: 4,
        startBurnHeight: burnHeight + 1,
      });
    else if (bob && bobs && cycle % 5 === 2 && bobs.unlockCycle <= cycle + 2)
      await this.send(bob.address, {
        kind: 'pox5-stake-update',
        signer,
        amountIncrease: 5_000n * STX,
        cyclesToExtend: 1,
      });
    else if (bob && bobs && cycle % 5 === 4 && bobs.unlockCycle > cycle + 1 && burnHeight + 2 < cycleStart(cycle + 1))
      await this.send(bob.address, { kind: 'pox5-unstake', signer });

    const daves = dave && book.bondPositions.get(dave.address);
    if (dave && daves && cycle % 4 === 3 && !book.paused && daves.accrued > daves.claimed)
      await this.send(dave.address, { kind: 'pox5-claim', signer, rewardCycle: cycle - 1 });
    if (dave && burnHeight < cycleStart(bondFirstCycle(DEMO_BOND_INDEX))) {
      if (!book.bonds.has(DEMO_BOND_INDEX))
        await this.send(deployer.address, {
          kind: 'pox5-setup-bond',
          index: DEMO_BOND_INDEX,
          targetRateBps: 500,
          stxValueRatio: 100_000,
          minUstxRatio: 1000,
          admin: deployer.address,
          allowlist: [{ staker: dave.address, maxSats: SATS }],
        });
      else if (!book.bondPositions.has(dave.address))
        await this.send(dave.address, {
          kind: 'pox5-register-bond',
          index: DEMO_BOND_INDEX,
          signer,
          ustx: 20_000n * STX,
          lockup: {
            type: 'l1',
            outputs: [{ txid: derivedHex(this.chain.seed, 'demo-bond-lockup'), outputIndex: 0, sats: SATS / 2n }],
          },
        });
    }
  }

  private claimable(address: string): bigint {
    const position = this.chain.state.staking.stx.get(address);
    return position ? position.accrued - position.claimed : 0n;
  }

  /** One call at a time per account: a call still pending is left to be mined first. */
  private async send(sender: string, intent: Intent): Promise<void> {
    if (this.chain.pending().some((entry) => entry.signed.sender === sender && isPox5Intent(entry.signed.intent)))
      return;
    try {
      await this.chain.submit(sender, intent);
    } catch (error) {
      if (!(error instanceof ChainError)) throw error;
    }
  }
}
