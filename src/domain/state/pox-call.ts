import type { Activity } from './snapshot.ts';

/** Where the boot contracts live (PoX among them): mainnet's deployer, and testnet's (devnets use it too). */
const BOOT_DEPLOYERS: ReadonlySet<string> = new Set(['SP000000000000000000002Q6VF78', 'ST000000000000000000002AMW42H']);

/**
 * A call to the chain's own PoX contract: pox-5 (staking, since epoch 4.0), or pox-4 and the versions before it
 * (`pox`, `pox-2`, `pox-3`: stacking, the history before).
 */
export interface PoxCall {
  readonly version: number;
  readonly functionName: string;
}

/**
 * The call as a PoX call, or null for any other contract. Only the boot deployer's: a contract anyone deploys under
 * the name `pox-5` is an ordinary contract, told by its name.
 */
export function poxCall(call: Activity['contractCall']): PoxCall | null {
  if (!call) return null;
  const [deployer, name] = call.contractId.split('.');
  if (!deployer || !BOOT_DEPLOYERS.has(deployer)) return null;
  const version = name === 'pox' ? 1 : /^pox-([2-9])$/.exec(name ?? '')?.[1];
  return version === undefined ? null : { version: Number(version), functionName: call.functionName };
}
