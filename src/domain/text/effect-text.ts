import { formatStx } from '../amount.ts';
import { formatNfts, formatToken } from './asset-text.ts';
import type { Activity, TokenMetadata } from '../state/snapshot.ts';
import { poxCall } from '../state/pox-call.ts';
import { isSbtc } from '../state/staking.ts';
import type { AssetEffect, TxEffect } from '../state/tx-effect.ts';

/** What the words of a transaction need beyond it: token names and decimals, and names for addresses. */
export interface Naming {
  token(assetIdentifier: string): TokenMetadata | undefined;
  /** A watched address's label, else its BNS name, else a short form. */
  party(principal: string): string;
}

export type Tense = 'done' | 'pending';

/** "84.00 STX", "292.00 WGOLD", "owl u12". */
export function amountText(asset: AssetEffect, naming: Pick<Naming, 'token'>): string {
  const size = asset.net < 0n ? -asset.net : asset.net;
  if (asset.type === 'stx') return formatStx(size);
  if (asset.type === 'ft') return formatToken(size, asset.assetIdentifier, naming.token(asset.assetIdentifier));
  return formatNfts(size, asset.assetIdentifier, asset.nftIds);
}

const VERBS = {
  mint: { done: 'Minted', pending: 'Minting' },
  burn: { done: 'Burned', pending: 'Burning' },
  in: { done: 'Received', pending: 'Receiving' },
  out: { done: 'Sent', pending: 'Sending' },
} as const;

/** "Received 84.00 STX", "Minting 100.00 WGOLD", "Burned 5.00 DUSD". */
export function effectWords(asset: AssetEffect, tense: Tense, naming: Pick<Naming, 'token'>): string {
  const verb = asset.how !== 'transfer' ? VERBS[asset.how] : asset.net > 0n ? VERBS.in : VERBS.out;
  return `${verb[tense]} ${amountText(asset, naming)}`;
}

/** `demo-vault.withdraw`: the called contract's name and function, as a detail line may show it. */
export const callName = (call: NonNullable<Activity['contractCall']>): string =>
  `${call.contractId.split('.')[1] ?? call.contractId}.${call.functionName}`;

/**
 * A claim of rewards (PoX-5's `claim-rewards`, which a staker sends to its signer manager): told by what it does,
 * never by the contract function's name.
 */
export const isClaimCall = (call: Activity['contractCall']): boolean => call?.functionName === 'claim-rewards';

/** Staking rewards paid to the address by its claim. */
const isRewardClaim = (activity: Activity, main: AssetEffect): boolean =>
  isClaimCall(activity.contractCall) && main.type === 'ft' && main.net > 0n && isSbtc(main.assetIdentifier);

/** A call the app knows what it is for, in plain words: while pending, once done, failed, and what it is. */
interface KnownCall {
  readonly pending: string;
  readonly done: string;
  readonly failed: string;
  readonly purpose: string;
  /** Its verb before the STX it locked, when it is the call that sets a lock: "Staked 1,000.00 STX". */
  readonly locks?: { readonly pending: string; readonly done: string };
}

const REWARD_CLAIM: KnownCall = {
  pending: 'Claiming rewards',
  done: 'Claimed rewards',
  failed: 'Reward claim failed',
  purpose: 'Reward claim',
};

/**
 * The chain's PoX calls a holder makes, by version and function: pox-5's staking (its effect, with amounts and cycles,
 * is the staking alert's to tell), and pox-4's stacking, which older history holds.
 */
const POX_CALLS: Readonly<Record<string, KnownCall>> = {
  '5:stake': {
    pending: 'Staking STX',
    done: 'Staked STX',
    failed: 'Stake failed',
    purpose: 'Stake',
    locks: { pending: 'Staking', done: 'Staked' },
  },
  '5:stake-update': {
    pending: 'Updating stake',
    done: 'Updated stake',
    failed: 'Stake update failed',
    purpose: 'Stake update',
  },
  '5:unstake': {
    pending: 'Requesting unstake',
    done: 'Unstake requested',
    failed: 'Unstake failed',
    purpose: 'Unstake request',
  },
  // A bond's steps a holder takes or sees: joining it, its admin announcing an exit before term, sBTC taken back.
  '5:register-for-bond': {
    pending: 'Registering for a bond',
    done: 'Registered for a bond',
    failed: 'Bond registration failed',
    purpose: 'Bond registration',
  },
  '5:announce-l1-early-exit': {
    pending: 'Announcing a bond exit',
    done: 'Announced a bond exit',
    failed: 'Bond exit announcement failed',
    purpose: 'Bond early exit',
  },
  '5:unstake-sbtc': {
    pending: 'Withdrawing bonded sBTC',
    done: 'Withdrew bonded sBTC',
    failed: 'Bond sBTC withdrawal failed',
    purpose: 'Bond sBTC withdrawal',
  },
  '4:stack-stx': {
    pending: 'Stacking STX',
    done: 'Stacked STX',
    failed: 'Stacking failed',
    purpose: 'Stacking',
    locks: { pending: 'Stacking', done: 'Stacked' },
  },
  '4:stack-extend': {
    pending: 'Extending stacking',
    done: 'Extended stacking',
    failed: 'Stacking extension failed',
    purpose: 'Stacking extension',
  },
  '4:stack-increase': {
    pending: 'Increasing stacking',
    done: 'Increased stacking',
    failed: 'Stacking increase failed',
    purpose: 'Stacking increase',
  },
  '4:delegate-stx': {
    pending: 'Delegating STX',
    done: 'Delegated STX',
    failed: 'Delegation failed',
    purpose: 'Delegation',
  },
  '4:revoke-delegate-stx': {
    pending: 'Revoking delegation',
    done: 'Revoked delegation',
    failed: 'Revoking delegation failed',
    purpose: 'Delegation revoked',
  },
};

function knownCall(call: NonNullable<Activity['contractCall']>): KnownCall | null {
  if (isClaimCall(call)) return REWARD_CLAIM;
  const pox = poxCall(call);
  // pox-4's stacking words tell the versions before it too: their stacking calls are the same.
  return (pox && POX_CALLS[`${pox.version >= 5 ? 5 : 4}:${pox.functionName}`]) ?? null;
}

/**
 * A call that moved nothing for the address: "Claiming rewards", "Called demo-vault.withdraw"; with the STX it locked
 * once its events are read, "Staked 1,000.00 STX", "Updated stake · 1,500.00 STX locked".
 */
export function callWords(
  call: NonNullable<Activity['contractCall']>,
  tense: Tense,
  locked: bigint | null = null,
): string {
  const known = knownCall(call);
  if (known && locked !== null && locked > 0n) {
    if (known.locks) return `${known.locks[tense]} ${formatStx(locked)}`;
    return `${known[tense]} · ${formatStx(locked)} locked`;
  }
  if (known) return known[tense];
  return `${tense === 'pending' ? 'Calling' : 'Called'} ${callName(call)}`;
}

/**
 * A call that failed: "Reward claim failed", "Stake failed", "Failed: demo-vault.withdraw"; skipped ones say so in the
 * same words: "Unstake skipped as problematic", where it would fail as "Unstake failed".
 */
export function failedCallWords(call: NonNullable<Activity['contractCall']>, skipped = false): string {
  const known = knownCall(call);
  if (known) return skipped ? known.failed.replace(/ failed$/, ' skipped as problematic') : known.failed;
  return `${skipped ? 'Skipped as problematic' : 'Failed'}: ${callName(call)}`;
}

/** Whether the miners included the transaction but skipped it (Epoch 4.0's `problematic_skipped`): not a failure. */
export const wasSkipped = (activity: Activity): boolean => activity.statusDetail === 'problematic_skipped';

/** "Failed: vault.withdraw", "Transfer failed"; a skipped one says so: "Skipped as problematic: pox-5.stake". */
export function failedWords(activity: Activity): string {
  const skipped = wasSkipped(activity);
  if (activity.contractCall) return failedCallWords(activity.contractCall, skipped);
  return skipped ? 'Transfer skipped as problematic' : 'Transfer failed';
}

/** What a call is for where the app knows it ("Reward claim", "Stake"), over its exact name in a transaction's detail. */
export const callPurpose = (call: NonNullable<Activity['contractCall']>): string | null =>
  knownCall(call)?.purpose ?? null;

/** The call a movement went through, beside its parties: "via demo-vault.withdraw", "reward claim". */
export function viaWords(call: NonNullable<Activity['contractCall']>): string {
  const purpose = knownCall(call)?.purpose;
  // Lower-cased as a sentence goes on, its asset's name kept: "bond sBTC withdrawal".
  return purpose ? `${purpose[0]!.toLowerCase()}${purpose.slice(1)}` : `via ${callName(call)}`;
}

/**
 * What happened, in the words of the asset that moved for the principal ("Received 84.00 STX", "and 1 more" when
 * several did), or the call made when nothing moved. With `withLocked`, a call that locked STX says how many
 * ("Staked 60,000.00 STX"): a row says it; an alert leaves it to the staking alert that tells the lock.
 */
export function headline(
  activity: Activity,
  effect: TxEffect,
  tense: Tense,
  naming: Pick<Naming, 'token'>,
  withLocked = false,
): string {
  const [main, ...others] = effect.effects;
  const more = others.length > 0 ? ` and ${others.length} more` : '';
  if (main && isRewardClaim(activity, main))
    return `${tense === 'pending' ? 'Claiming' : 'Claimed'} ${amountText(main, naming)}${more}`;
  if (main) return `${effectWords(main, tense, naming)}${more}`;
  if (activity.contractCall)
    return callWords(activity.contractCall, tense, withLocked ? (activity.locked ?? null) : null);
  if (activity.kind === 'token_transfer') return `${tense === 'pending' ? 'Sending' : 'Sent'} 0 STX`;
  return 'Transaction';
}

/**
 * "From Alice", "To Bob and 2 more", with the call it went through: "From Vault contract · via demo-vault.withdraw";
 * staking rewards by where they came from: "Staking rewards from ST2CY5…K9AG.pox5-signer".
 */
export function partiesLine(activity: Activity, effect: TxEffect, naming: Pick<Naming, 'party'>): string | null {
  const main = effect.effects[0];
  const parts: string[] = [];
  if (main && main.how === 'transfer' && main.counterparties.length > 0) {
    const [first, ...rest] = main.counterparties;
    const more = rest.length > 0 ? ` and ${rest.length} more` : '';
    if (isRewardClaim(activity, main)) return `Staking rewards from ${naming.party(first!)}${more}`;
    parts.push(`${main.net < 0n ? 'To' : 'From'} ${naming.party(first!)}${more}`);
  }
  if (main && activity.contractCall) parts.push(viaWords(activity.contractCall));
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** " · fee 0.001081 STX": what the principal paid the miners, apart from the amount. */
export const feeSuffix = (effect: TxEffect): string =>
  effect.signed && effect.fee > 0n ? ` · fee ${formatStx(effect.fee)}` : '';
