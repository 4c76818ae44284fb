import { assetKinds } from '../alerts/alert-judge.ts';
import type { Activity } from '../state/snapshot.ts';
import { poxCall } from '../state/pox-call.ts';
import { txEffect, type AssetEffect } from '../state/tx-effect.ts';
import { isClaimCall } from '../text/effect-text.ts';

/** What happened to a transaction the node no longer lists as it was: what the row says beside it. */
export type AwayMark = 'dropped' | 'reverted';

/** One row of the address page's full history: the transaction, and what became of it when it left the chain. */
export interface HistoryRow {
  readonly activity: Activity;
  readonly mark: AwayMark | null;
}

export const HISTORY_FILTERS = ['all', 'stx', 'tokens', 'nfts', 'staking', 'failed', 'pending'] as const;
export type HistoryFilter = (typeof HISTORY_FILTERS)[number];

/** A filter named in a URL's query, or `all` for anything else (a link typed by hand never breaks the page). */
export const readFilter = (value: string | null): HistoryFilter =>
  (HISTORY_FILTERS as readonly string[]).includes(value ?? '') ? (value as HistoryFilter) : 'all';

const newestMinedFirst = (a: Activity, b: Activity): number =>
  (b.blockHeight ?? 0) - (a.blockHeight ?? 0) || (b.txIndex ?? 0) - (a.txIndex ?? 0) || b.time - a.time;

/**
 * The whole history as the page shows it: pending first (newest first), then every mined transaction known, from
 * the engine's recent ones, the pages kept on the device and the transactions that left the chain (`away`: dropped
 * from the mempool, or reverted by a re-org), each once and in its place by height. A transaction marked away that
 * the chain mines again (on the new fork) is shown as it is now, unmarked.
 */
export function historyRows(sources: {
  readonly pending: readonly Activity[];
  readonly recent: readonly Activity[];
  readonly kept: readonly Activity[];
  readonly away: ReadonlyMap<string, { readonly mark: AwayMark; readonly activity: Activity | null }>;
}): HistoryRow[] {
  const current = new Set([...sources.pending, ...sources.recent].map((activity) => activity.txId));
  const mined = new Map<string, Activity>();
  for (const activity of sources.kept) mined.set(activity.txId, activity);
  for (const activity of sources.recent) {
    // The device's copy may carry the events the engine's copy has not read yet: keep them.
    const kept = mined.get(activity.txId);
    const keptMore = kept && ((kept.movements && !activity.movements) || (kept.attempt && !activity.attempt));
    mined.set(activity.txId, keptMore ? { ...activity, ...movementsOf(kept) } : activity);
  }
  const dropped: Activity[] = [];
  for (const [txId, { mark, activity }] of sources.away) {
    if (current.has(txId)) continue;
    const known = mined.get(txId) ?? activity;
    if (!known) continue;
    if (mark === 'dropped' || known.blockHeight === null) dropped.push(known);
    else mined.set(txId, known);
  }
  // Back in the mempool after a re-org, it is still one the chain took back: only mining it again clears the mark.
  const minedNow = new Set(sources.recent.map((activity) => activity.txId));
  const markOf = (activity: Activity): AwayMark | null =>
    minedNow.has(activity.txId) ? null : (sources.away.get(activity.txId)?.mark ?? null);
  const pendingIds = new Set(sources.pending.map((activity) => activity.txId));
  const ordered = [...mined.values()].filter((activity) => !pendingIds.has(activity.txId)).sort(newestMinedFirst);
  // A dropped transaction never had a height: it stays where its receipt time puts it among the mined ones.
  for (const activity of dropped.sort((a, b) => b.time - a.time)) {
    if (mined.has(activity.txId)) continue;
    const at = ordered.findIndex((other) => other.time < activity.time);
    ordered.splice(at === -1 ? ordered.length : at, 0, activity);
  }
  const rows = ordered.map((activity) => ({ activity, mark: markOf(activity) }));
  const pendingRows = [...sources.pending]
    .sort((a, b) => b.time - a.time)
    .map((activity) => ({ activity, mark: markOf(activity) }));
  return [...pendingRows, ...rows];
}

/**
 * Whether transactions are missing between the engine's newest (at most its RECENT_LIMIT) and the history kept on the
 * device: the newest one kept is no longer among the engine's, all of which are newer. What lies between was never
 * read: the count would stop while the list grows at its top, and "down to the first" would leave out the middle.
 */
export function unreadNewer(kept: readonly Activity[], recent: readonly Activity[]): boolean {
  const newestKept = kept.reduce<Activity | null>(
    (newest, activity) => (newest === null || newestMinedFirst(activity, newest) < 0 ? activity : newest),
    null,
  );
  if (!newestKept || recent.length === 0) return false;
  if (recent.some((activity) => activity.txId === newestKept.txId)) return false;
  return recent.every((activity) => newestMinedFirst(activity, newestKept) < 0);
}

const movementsOf = (activity: Activity) => ({
  movements: activity.movements ?? null,
  assets: activity.assets ?? null,
  locked: activity.locked ?? null,
  ...(activity.attempt ? { attempt: activity.attempt } : {}),
});

/**
 * A call to the PoX contract (pox-4 stacking, pox-5 `stake`, `unstake`, bonds) or one that locked STX: the staking
 * filter's rows. The alert rules' stacking kind knows only the stacking and delegating calls of before PoX-5.
 */
const isStaking = (activity: Activity): boolean =>
  poxCall(activity.contractCall) !== null || isClaimCall(activity.contractCall) || (activity.locked ?? 0n) > 0n;

/** Whether a row belongs under a filter: by what it moved for the address, or by its state. */
export function matchesFilter(row: HistoryRow, filter: HistoryFilter, principal: string): boolean {
  const { activity } = row;
  switch (filter) {
    case 'all':
      return true;
    case 'failed':
      return activity.status === 'failed';
    case 'pending':
      return activity.status === 'pending' && row.mark === null;
    case 'staking':
      return isStaking(activity);
    // A staking reward claim pays sBTC, but it is staking's: filed there, not under Tokens.
    case 'tokens':
      return !isClaimCall(activity.contractCall) && assetKinds(activity, txEffect(activity, principal)).has(filter);
    default:
      return assetKinds(activity, txEffect(activity, principal)).has(filter);
  }
}

/** One line of the signed amount column: an asset's net for the address, or the fee it paid. */
export interface SignedLine {
  readonly effect: AssetEffect;
  readonly sign: '+' | '−';
}

/**
 * The signed amounts of a row, one line an asset (STX first), the STX it locked (a stake: nothing left the address,
 * but that much can no longer be spent), and the fee when the address signed it (a sent row): amounts stay bigint
 * base units here, worded at the edge.
 */
export function signedAmounts(
  activity: Activity,
  principal: string,
): { lines: SignedLine[]; locked: bigint | null; fee: bigint | null } {
  const effect = txEffect(activity, principal);
  // A failed or dropped transaction moved nothing: only what it cost, when it cost anything.
  const done = activity.status === 'success';
  const moved = activity.status === 'failed' || activity.status === 'dropped' ? [] : effect.effects;
  const lines = moved.map((asset) => ({ effect: asset, sign: asset.net < 0n ? ('−' as const) : ('+' as const) }));
  const paid = effect.signed && activity.status !== 'dropped' ? effect.fee : 0n;
  const locked = done && effect.signed && (activity.locked ?? 0n) > 0n ? activity.locked! : null;
  return { lines, locked, fee: paid > 0n ? paid : null };
}
