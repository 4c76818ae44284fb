import type { AlertItem } from './alert-plan.ts';
import type { CallArgument } from '../state/call-attempt.ts';
import type { Activity, Movement, TokenMetadata } from '../state/snapshot.ts';
import { tokenTransferCall } from '../text/clarity-words.ts';

/**
 * What an alert is about, as data rather than words, so that the device can word it itself with the user's labels
 * (the relay never learns them): the transaction as the words need it, amounts as decimal strings (JSON has no
 * bigint). Only the principal's own movements are kept: the words never name anything else, and a push has 4 kB.
 */
export interface AlertFacts {
  readonly subject: string;
  readonly activity: WireActivity | null;
  /** STX locked or unlocked, for those phases. */
  readonly amount: string | null;
  /** A follow-up whose transaction the sender no longer holds: worded from what was told before. */
  readonly recalled: boolean;
  /** Pending again after a re-org took its block away: worded as that revert (AlertItem.afterRevert). */
  readonly afterRevert?: true;
  /** BNS names of the parties, as the sender knows them (a device's own names and labels come first). */
  readonly names?: Readonly<Record<string, string>>;
  /** Token names and decimals by contract id, as the sender knows them. */
  readonly tokens?: Readonly<Record<string, TokenMetadata>>;
}

type Wire<T> = { readonly [K in keyof T]: T[K] extends bigint ? string : T[K] };
type WireMovement = Wire<Movement>;
export type WireActivity = Omit<
  Wire<Activity>,
  'assets' | 'movements' | 'locked' | 'txIndex' | 'transferAmount' | 'attempt'
> & {
  readonly assets?: readonly Wire<NonNullable<Activity['assets']>[number]>[] | null;
  readonly movements?: readonly WireMovement[] | null;
  readonly transferAmount?: string;
  /** A pending (or dropped) token transfer call's arguments, as printed: its words say what it would move. */
  readonly args?: readonly CallArgument[];
};

export function alertFacts(item: AlertItem): AlertFacts {
  const activity = item.activity;
  return {
    subject: item.subject,
    activity: activity && wireActivity(activity, item.principal),
    amount: item.amount === null ? null : item.amount.toString(),
    recalled: !activity && item.recalled !== undefined,
    ...(item.afterRevert ? { afterRevert: true as const } : {}),
  };
}

function wireActivity(activity: Activity, principal: string): WireActivity {
  // Only what the words read: the lock amount and the block position stay behind.
  const { txId, status, kind, counterparty, memo, contractCall, blockHeight, time, assets, movements } = activity;
  const own = movements?.filter((movement) => movement.sender === principal || movement.recipient === principal);
  return {
    txId,
    status,
    kind,
    counterparty,
    stxNet: activity.stxNet.toString(),
    fee: activity.fee.toString(),
    memo,
    contractCall,
    blockHeight,
    time,
    ...(activity.sender === undefined ? {} : { sender: activity.sender }),
    ...(activity.nonce === undefined ? {} : { nonce: activity.nonce }),
    // Who paid the fee in the sender's place: the words tell its fee as the sponsor's.
    ...(activity.sponsor ? { sponsor: activity.sponsor } : {}),
    ...(activity.replacedBy === undefined ? {} : { replacedBy: activity.replacedBy }),
    // The words name a transaction the miners skipped (Epoch 4.0's problematic_skipped) as such.
    ...(activity.statusDetail === undefined ? {} : { statusDetail: activity.statusDetail }),
    // What an STX transfer asked to move: a failed one's words still name it.
    ...(activity.transferAmount === undefined ? {} : { transferAmount: activity.transferAmount.toString() }),
    ...(pendingTransferArgs(activity) ?? {}),
    ...(assets === undefined
      ? {}
      : { assets: assets && assets.map((asset) => ({ ...asset, net: asset.net.toString() })) }),
    ...(own === undefined || own === null
      ? { movements: own }
      : { movements: own.map((movement) => ({ ...movement, amount: movement.amount.toString() })) }),
  };
}

/** A pending or dropped token transfer call's arguments, the only call arguments its words read. */
function pendingTransferArgs(activity: Activity): { args: readonly CallArgument[] } | null {
  const { status, contractCall, attempt } = activity;
  if ((status !== 'pending' && status !== 'dropped') || !contractCall || !attempt) return null;
  return tokenTransferCall(contractCall, attempt.args) ? { args: attempt.args } : null;
}

/** The other parties the facts name: whose names a sender may add. */
export function partiesOf(facts: AlertFacts): string[] {
  const activity = facts.activity;
  if (!activity) return [];
  const parties = new Set<string>();
  if (activity.counterparty) parties.add(activity.counterparty);
  for (const movement of activity.movements ?? [])
    for (const party of [movement.sender, movement.recipient]) if (party) parties.add(party);
  return [...parties];
}

/** Contract ids of the tokens the facts move: whose metadata a sender may add. */
export function tokensOf(facts: AlertFacts): string[] {
  const activity = facts.activity;
  if (!activity) return [];
  const assets = [...(activity.assets ?? []), ...(activity.movements ?? [])];
  // A pending token transfer call's token, which its words name from its arguments.
  const called = activity.args && activity.contractCall ? [activity.contractCall.contractId] : [];
  return [
    ...new Set([
      ...assets.filter((asset) => asset.type === 'ft').map((asset) => asset.assetIdentifier.split('::')[0]!),
      ...called,
    ]),
  ];
}
