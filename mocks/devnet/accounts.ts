import {
  addressFromPublicKeys,
  AddressHashMode,
  addressToString,
  AddressVersion,
  createStacksPublicKey,
  getAddressFromPrivateKey,
  privateKeyToPublic,
} from '@stacks/transactions';
import { derivedHex } from './random.ts';

export interface SingleSigAccount {
  readonly kind: 'single-sig';
  readonly address: string;
  readonly label: string;
  readonly privateKey: string;
}

export interface MultiSigAccount {
  readonly kind: 'multi-sig';
  readonly address: string;
  readonly label: string;
  readonly requiredSignatures: number;
  readonly publicKeys: readonly string[];
  readonly signerKeys: readonly string[];
}

export interface ContractAccount {
  readonly kind: 'contract';
  readonly address: string;
  readonly label: string;
}

export type DemoAccount = SingleSigAccount | MultiSigAccount | ContractAccount;

export interface DemoAccounts {
  /** Deploys the token contracts; holds the supply the faucet hands out. */
  readonly deployer: SingleSigAccount;
  readonly people: readonly SingleSigAccount[];
  readonly treasury: MultiSigAccount;
  readonly vault: ContractAccount;
  readonly all: readonly DemoAccount[];
}

/** Compressed secp256k1 private keys from the seed: the same seed always gives the same addresses. */
function singleSig(seed: string, label: string): SingleSigAccount {
  const privateKey = `${derivedHex(seed, `key/${label}`)}01`;
  return { kind: 'single-sig', address: getAddressFromPrivateKey(privateKey, 'testnet'), label, privateKey };
}

export function createDemoAccounts(seed: string): DemoAccounts {
  const deployer = singleSig(seed, 'Deployer');
  const people = ['Alice', 'Bob', 'Carol', 'Dave'].map((label) => singleSig(seed, label));
  const signerKeys = ['signer-1', 'signer-2', 'signer-3'].map((label) => singleSig(seed, label).privateKey);
  const publicKeys = signerKeys.map((key) => privateKeyToPublic(key) as string);
  const treasury: MultiSigAccount = {
    kind: 'multi-sig',
    label: 'Treasury (2-of-3)',
    requiredSignatures: 2,
    publicKeys,
    signerKeys: signerKeys.slice(0, 2),
    address: addressToString(
      addressFromPublicKeys(
        AddressVersion.TestnetMultiSig,
        AddressHashMode.P2SH,
        2,
        publicKeys.map(createStacksPublicKey),
      ),
    ),
  };
  const vault: ContractAccount = {
    kind: 'contract',
    label: 'Vault contract',
    address: `${deployer.address}.demo-vault`,
  };
  return { deployer, people, treasury, vault, all: [...people, treasury, vault, deployer] };
}
