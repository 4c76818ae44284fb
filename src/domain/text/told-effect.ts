import type { Activity } from '../state/snapshot.ts';
import { txEffect, type TxEffect } from '../state/tx-effect.ts';
import { callTokenAsset, tokenTransferCall } from './clarity-words.ts';

/**
 * What the words tell a transaction does to `principal`: its effect (txEffect) and, while a token's `transfer` call is
 * pending or was dropped, what its arguments say it moves: nothing has moved yet, and it is told as "Sending 292.00
 * WGOLD — pending", "To Bob", as a pending STX transfer is, not as the contract function it calls. For the words only:
 * what the app judges and counts is what moved (txEffect).
 */
export function toldEffect(activity: Activity, principal: string): TxEffect {
  const effect = txEffect(activity, principal);
  if (effect.effects.length > 0 || (activity.status !== 'pending' && activity.status !== 'dropped')) return effect;
  const call = activity.contractCall;
  const transfer = call && activity.attempt ? tokenTransferCall(call, activity.attempt.args) : null;
  if (!call || !transfer || transfer.from === transfer.to) return effect;
  if (transfer.from !== principal && transfer.to !== principal) return effect;
  const out = transfer.from === principal;
  return {
    ...effect,
    effects: [
      {
        type: 'ft',
        assetIdentifier: callTokenAsset(call.contractId),
        net: out ? -transfer.amount : transfer.amount,
        how: 'transfer',
        counterparties: [out ? transfer.to : transfer.from],
        nftIds: [],
      },
    ],
  };
}

/** The token contracts whose transfers the activities' words read from a call's arguments (see toldEffect). */
export function toldTokenContracts(activities: readonly Activity[]): string[] {
  const contracts = activities.flatMap(({ status, contractCall, attempt }) =>
    (status === 'pending' || status === 'dropped') &&
    contractCall &&
    attempt &&
    tokenTransferCall(contractCall, attempt.args)
      ? [contractCall.contractId]
      : [],
  );
  return [...new Set(contracts)];
}
