import {
  isNews,
  lowerFloor,
  pendingBeforeWatch,
  raiseFloor,
  record,
  revert,
  sameState,
  subjectOf,
  wasTold,
  withKnownAssets,
  type AlertLedger,
  type AlertPhase,
} from '../domain/alerts/alert-ledger.ts';
import { alertId, itemState, type AlertItem } from '../domain/alerts/alert-plan.ts';
import type { AlertRules } from '../domain/alerts/alert-rules.ts';
import { judge } from '../domain/alerts/alert-judge.ts';
import { entryState, type InboxEntry } from '../domain/alerts/inbox.ts';
import type { Network } from '../domain/network.ts';
import { afterFork } from '../domain/state/fork-mark.ts';
import type { Activity, AddressSnapshot, StxBalance } from '../domain/state/snapshot.ts';
import { txEffect } from '../domain/state/tx-effect.ts';
import type { ReorgScope } from '../monitor/ports.ts';
import type { StakingChange } from '../monitor/staking-keeper.ts';
import { settleReorg } from './reorg-judging.ts';
import { judgeStaking } from './staking-alerts.ts';
import { isPositionCall } from '../domain/alerts/staking-news.ts';

/** What the monitors hand the alerts, one address at a time (see ActivitySink in monitor/ports.ts). */
export type AlertInput =
  | {
      kind: 'activities';
      network: Network;
      principal: string;
      activities: readonly Activity[];
      source: 'live' | 'sync';
    }
  | {
      kind: 'baseline';
      network: Network;
      principal: string;
      activities: readonly Activity[];
      height: number | null;
      pendingBefore?: number | null;
    }
  | {
      kind: 'reverted';
      network: Network;
      principal: string;
      activities: readonly Activity[];
      scope: ReorgScope | undefined;
    }
  | { kind: 'balance'; network: Network; principal: string; before: StxBalance | null; after: StxBalance }
  | { kind: 'forked'; network: Network; principal: string; height: number }
  | { kind: 'staking'; network: Network; principal: string; change: StakingChange };

/** What judging an input needs besides the input and the address's ledger. */
export interface JudgeContext {
  readonly rules: AlertRules;
  readonly now: number;
  /** The address's last known state, for the assets it already holds (the unsolicited guard). */
  readonly snapshot: () => AddressSnapshot | undefined;
  /** An alert as the inbox stored it. */
  readonly stored: (id: string) => InboxEntry | undefined;
  /** Whether the person was away just before now: a catch-up then reads "While you were away". */
  readonly away: () => boolean;
}

type Tell = (
  subject: string,
  phase: AlertPhase,
  activity: Activity | null,
  amount?: bigint | null,
  recalled?: AlertItem['recalled'],
  quiet?: boolean,
) => void;

/** Judges one input against the ledger; returns the ledger after it and adds what is to be told to `items`. */
export function judgeInput(
  input: AlertInput,
  ledger: AlertLedger,
  context: JudgeContext,
  items: AlertItem[],
): AlertLedger {
  const tell = teller(input, context, items);
  switch (input.kind) {
    case 'forked':
      return afterFork(ledger, input.height);
    case 'staking':
      return judgeStaking(input.change, ledger, context.rules, (subject, phase, amount) =>
        tell(subject, phase, null, amount),
      );
    case 'baseline':
      return judgeBaseline(input, ledger, context, items);
    case 'balance':
      return judgeLocking(input, ledger, context.rules, tell);
    case 'reverted':
      return judgeReverted(input, ledger, context, tell);
    case 'activities':
      return judgeActivities(input, ledger, context, tell);
  }
}

/** Adds an alert state to `items`, unless it is the state last stored or told in this batch. */
function teller(input: AlertInput, context: JudgeContext, items: AlertItem[]): Tell {
  return (subject, phase, activity, amount = null, recalled, quiet = false) => {
    const id = alertId(input.network, input.principal, subject);
    // Already stored in this state: a tab closed between storing it and saving the ledger. recover() shows it. A
    // state told earlier in this batch is newer than the stored one (reverted, back pending, then mined again).
    const entry = context.stored(id);
    const stored = entry?.phase;
    const latest = items.reduce((found, told) => (told.id === id ? itemState(told) : found), entryState(entry));
    if (sameState(latest, itemState({ phase, activity }))) return;
    // Back in the mempool after a revert: told as that revert, aloud unless the revert was told before this batch;
    // never quiet, since no other alert tells a revert (a stake taken back by a re-org is no staking news).
    const afterRevert =
      phase === 'pending' && latest?.phase === 'reverted' ? (stored === 'reverted' ? 'told' : 'untold') : null;
    items.push({
      id,
      network: input.network,
      principal: input.principal,
      subject,
      phase,
      activity,
      amount,
      at: context.now,
      catchUp: input.kind === 'activities' && input.source === 'sync' && context.away(),
      ...(recalled ? { recalled } : {}),
      ...(quiet && !afterRevert ? { quiet } : {}),
      ...(afterRevert ? { afterRevert } : {}),
    });
  };
}

/**
 * History is what was mined at or below the first sync's height, and what was pending then: recorded as seen, never
 * told. A transaction met live since the watch began, or mined above that height while the sync ran, is news judged
 * as any other.
 */
function judgeBaseline(
  input: Extract<AlertInput, { kind: 'baseline' }>,
  start: AlertLedger,
  context: JudgeContext,
  items: AlertItem[],
): AlertLedger {
  const height = input.height;
  const isHistory = (activity: Activity) =>
    start.seen[activity.txId] === undefined &&
    (activity.blockHeight === null || height === null || activity.blockHeight <= height);
  let ledger = start;
  for (const activity of input.activities.filter(isHistory)) {
    const state = subjectOf(activity);
    if (isNews(ledger, state.subject, state.phase, activity.blockHeight))
      ledger = record(ledger, state.subject, state.phase, activity.blockHeight, 'history', activity.statusDetail);
  }
  ledger = raiseFloor(ledger, input.height);
  if (input.pendingBefore != null) ledger = { ...ledger, pendingBefore: input.pendingBefore };
  const followed = input.activities.filter((activity) => !isHistory(activity));
  if (followed.length === 0) return ledger;
  // Met as the address was being added: news of now, not a catch-up of an absence.
  const news = { ...input, kind: 'activities' as const, activities: followed, source: 'live' as const };
  return judgeActivities(news, ledger, context, teller(news, context, items));
}

/** STX locked or unlocked (staking): told under the address's staking rule. */
function judgeLocking(
  input: Extract<AlertInput, { kind: 'balance' }>,
  ledger: AlertLedger,
  rules: AlertRules,
  tell: Tell,
): AlertLedger {
  const locking = input.after.locked > 0n;
  const subject = locking ? `lock:${input.after.unlockBurnHeight}` : `unlock:${input.before?.unlockBurnHeight}`;
  const phase = locking ? 'locked' : 'unlocked';
  if (!isNews(ledger, subject, phase, null)) return ledger;
  const told = !rules.muted && rules.stacking;
  if (told) tell(subject, phase, null, locking ? input.after.locked : (input.before?.locked ?? 0n));
  return record(ledger, subject, phase, null, told);
}

function judgeReverted(
  input: Extract<AlertInput, { kind: 'reverted' }>,
  start: AlertLedger,
  context: JudgeContext,
  tell: Tell,
): AlertLedger {
  let ledger = start;
  for (const activity of input.activities) {
    if (!isNews(ledger, activity.txId, 'reverted', null)) continue;
    const verdict = judge(activity, 'reverted', context.rules, {
      principal: input.principal,
      knownAssets: new Set(ledger.knownAssets),
      alertedBefore: wasTold(ledger, activity.txId),
    });
    ledger = revert(ledger, activity.txId, verdict.alert, start.floor);
    if (verdict.alert) tell(activity.txId, 'reverted', activity);
  }
  return input.scope ? revertBeyondHistory(input, input.scope, ledger, context, tell) : ledger;
}

/**
 * Reverts what was told of transactions mined within the heights the node's history was read over that the node
 * no longer lists, though the bounded snapshot let go of them: their words come from what the inbox told.
 */
function revertBeyondHistory(
  input: { network: Network; principal: string },
  scope: ReorgScope,
  start: AlertLedger,
  context: JudgeContext,
  tell: Tell,
): AlertLedger {
  let ledger = scope.forkFrom !== null ? lowerFloor(start, scope.forkFrom - 1) : start;
  for (const [subject, seen] of Object.entries(start.seen)) {
    if (seen.phase !== 'confirmed' && seen.phase !== 'failed') continue;
    if (seen.height === null || (scope.coveredAbove !== null && seen.height <= scope.coveredAbove)) continue;
    if (scope.present.has(subject)) continue;
    const told = seen.told && !context.rules.muted;
    // History is judged against the floor before this re-org lowered it.
    ledger = revert(ledger, subject, told, start.floor);
    const before = context.stored(alertId(input.network, input.principal, subject));
    if (told && before) tell(subject, 'reverted', null, null, { title: before.title, body: before.body });
  }
  return ledger;
}

/** Transactions in their current state: each new state judged against the address's rules. */
function judgeActivities(
  input: Extract<AlertInput, { kind: 'activities' }>,
  start: AlertLedger,
  context: JudgeContext,
  tell: Tell,
): AlertLedger {
  let ledger = start;
  for (const activity of input.activities) {
    const state = subjectOf(activity);
    const settled = settleReorg(ledger, activity);
    ledger = settled.ledger;
    if (!settled.judge || !isNews(ledger, state.subject, state.phase, activity.blockHeight)) continue;
    if (pendingBeforeWatch(ledger, state.subject, state.phase, activity.time)) {
      ledger = record(ledger, state.subject, state.phase, null, 'history');
      continue;
    }
    // What was mined before the address was watched sits at or below the ledger's floor (its first sync's height):
    // isNews said so. Chain positions decide, never timestamps: block times lag and device clocks drift.
    const verdict = judge(activity, state.phase, context.rules, {
      principal: input.principal,
      knownAssets: new Set([...ledger.knownAssets, ...heldBefore(context.snapshot(), activity)]),
      alertedBefore: wasTold(ledger, state.subject),
    });
    ledger = record(ledger, state.subject, state.phase, activity.blockHeight, verdict.alert, activity.statusDetail);
    if (txEffect(activity, input.principal).signed && activity.assets)
      ledger = withKnownAssets(
        ledger,
        activity.assets.map((change) => change.assetIdentifier),
      );
    if (verdict.alert)
      tell(state.subject, state.phase, activity, null, undefined, toldByStaking(activity, input, context));
  }
  return ledger;
}

/**
 * The address's own stake, stake-update or unstake, pending or mined, where its staking is read and told: the
 * staking alert tells what it did (staking-news.ts), so this state goes to the inbox only.
 */
function toldByStaking(activity: Activity, input: { principal: string }, context: JudgeContext): boolean {
  const { rules } = context;
  return (
    rules.stacking &&
    !rules.muted &&
    isPositionCall(activity) &&
    txEffect(activity, input.principal).signed &&
    // Read before: a first read is history, never told (null: the node serves no staking to read).
    context.snapshot()?.staking != null
  );
}

/**
 * Assets the address holds more of than this transaction brought: it held them before (or asked for more since).
 * What the spam guard lets through besides what the ledger remembers.
 */
function heldBefore(snapshot: AddressSnapshot | undefined, activity: Activity): string[] {
  const holdings = snapshot?.holdings;
  if (!holdings) return [];
  return (activity.assets ?? [])
    .filter((change) =>
      change.type === 'ft'
        ? (holdings.tokens.get(change.assetIdentifier) ?? 0n) > change.net
        : BigInt(holdings.nfts.get(change.assetIdentifier) ?? 0) > change.net,
    )
    .map((change) => change.assetIdentifier);
}
