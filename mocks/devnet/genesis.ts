import type { DemoAccounts } from './accounts.ts';
import type { DemoAssets } from './assets.ts';
import { CYCLE_BURN_BLOCKS, type Ledger } from './ledger.ts';
import { allocateStakingGenesis } from './pox5-genesis.ts';
import { derivedHex } from './random.ts';

const STX = 1_000_000n;
export const FIRST_BURN_HEIGHT = 100;

/**
 * The demo chain's starting state: STX for everyone, the token supplies shared out, NFTs owned, and one account
 * stacking, so that a lock and its unlock happen within the first minutes of a demo.
 */
export function allocateGenesis(ledger: Ledger, accounts: DemoAccounts, assets: DemoAssets, seed: string): void {
  const { deployer, people, treasury, vault } = accounts;
  ledger.credit(deployer.address, 50_000_000n * STX);
  people.forEach((person, i) => ledger.credit(person.address, BigInt(100_000 + i * 25_000) * STX));
  ledger.credit(treasury.address, 2_500_000n * STX);
  ledger.credit(vault.address, 750_000n * STX);
  for (const token of assets.tokens) {
    ledger.moveFt(token.assetIdentifier, null, deployer.address, token.totalSupply);
    people.forEach((person, i) => {
      const share = token.totalSupply / BigInt(1000 * (i + 2));
      ledger.moveFt(token.assetIdentifier, deployer.address, person.address, share);
    });
  }
  for (let id = 1n; id <= 24n; id++) {
    const owner = people[Number(id) % people.length] ?? deployer;
    ledger.nftOwners.set(ledger.nftKey(assets.nft.assetIdentifier, id), owner.address);
  }
  const stacker = people[2];
  if (stacker) {
    Object.assign(ledger.account(stacker.address), {
      locked: 60_000n * STX,
      lockTxId: `0x${derivedHex(seed, 'genesis-lock')}`,
      lockHeight: 1,
      burnLockHeight: FIRST_BURN_HEIGHT,
      burnUnlockHeight: FIRST_BURN_HEIGHT + 2 * CYCLE_BURN_BLOCKS,
    });
  }
  allocateStakingGenesis(ledger, accounts, seed);
}
