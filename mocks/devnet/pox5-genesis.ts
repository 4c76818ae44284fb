import { privateKeyToPublic } from '@stacks/transactions';
import type { DemoAccounts } from './accounts.ts';
import { FIRST_BURN_HEIGHT } from './genesis.ts';
import type { Ledger } from './ledger.ts';
import { SBTC } from './pox5.ts';
import { derivedHex } from './random.ts';

const SATS_PER_BTC = 100_000_000n;

/** The devnet's one signer manager contract, which stakers stake through and claim their rewards from. */
export const signerManagerOf = (accounts: Pick<DemoAccounts, 'deployer'>): string =>
  `${accounts.deployer.address}.pox5-signer`;

/**
 * PoX-5 at genesis: the deployer is the devnet's bond and pause admin (as a local network configures them), the
 * signer manager is registered with its key, and the deployer holds bridged sBTC to hand out for sBTC bonds.
 */
export function allocateStakingGenesis(ledger: Ledger, accounts: DemoAccounts, seed: string): void {
  const signer = signerManagerOf(accounts);
  ledger.staking.admin = accounts.deployer.address;
  ledger.staking.signers.set(signer, {
    signer,
    signerKey: `0x${privateKeyToPublic(`${derivedHex(seed, 'pox5/signer-key')}01`) as string}`,
    registered: { txId: `0x${derivedHex(seed, 'pox5/register-signer')}`, height: 1, burnHeight: FIRST_BURN_HEIGHT },
  });
  ledger.moveFt(SBTC.assetIdentifier, null, accounts.deployer.address, 21n * SATS_PER_BTC);
}
