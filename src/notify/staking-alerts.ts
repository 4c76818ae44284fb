import { isNews, record, type AlertLedger, type AlertPhase } from '../domain/alerts/alert-ledger.ts';
import type { AlertRules } from '../domain/alerts/alert-rules.ts';
import type { AddressSnapshot, StxBalance } from '../domain/state/snapshot.ts';
import type { StakingPosition } from '../domain/state/staking.ts';
import { SBTC_CLAIMABLE_MINIMUM, stakingNews } from '../domain/alerts/staking-news.ts';
import type { StakingChange } from '../monitor/staking-keeper.ts';

type Tell = (subject: string, phase: AlertPhase, amount: bigint) => void;

/**
 * Judges one staking read against the address's ledger: every change it brings is recorded (told or not, under
 * the "Staking" rule), so the same change read again is never told twice. The read is compared with the position the
 * ledger last judged (the snapshot's, for a ledger stored before it kept one), and kept there. The first read is
 * history.
 */
export function judgeStaking(change: StakingChange, start: AlertLedger, rules: AlertRules, tell: Tell): AlertLedger {
  // A ledger nothing was recorded in yet (an address before its first sync) is left as it is unless there is news: a
  // stored ledger is what tells a first sync's finds apart from news (alerter.ts). Its reads compare as before.
  const fresh = start.counter === 0;
  const before = fresh ? change.before : (start.staking ?? change.before);
  if (before === null) return fresh ? start : { ...start, staking: change.after };
  if (samePosition(before, change.after)) return fresh || start.staking ? start : { ...start, staking: before };
  const threshold = rules.minimums[SBTC_CLAIMABLE_MINIMUM] ?? 0n;
  let ledger: AlertLedger = fresh ? start : { ...start, staking: change.after };
  for (const news of stakingNews(before, change.after, change.burnHeight, threshold)) {
    if (!isNews(ledger, news.subject, news.phase, null)) continue;
    const told = !rules.muted && rules.stacking;
    ledger = record(ledger, news.subject, news.phase, null, told);
    if (told) tell(news.subject, news.phase, news.amount);
  }
  return ledger;
}

/**
 * Two reads of the same position, whatever burn height each was read at: nothing to tell, and the ledger unchanged
 * (nothing to store at every burn block).
 */
const samePosition = (a: StakingPosition, b: StakingPosition): boolean =>
  JSON.stringify({ ...a, burnHeight: null }, bigintsAsText) ===
  JSON.stringify({ ...b, burnHeight: null }, bigintsAsText);

const bigintsAsText = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? `${value}n` : value);

/**
 * A PoX-5 lock is told from the staking reads (with its cycles); the balance tells pox-4 locks only. A balance
 * event (v1 shape) does not say its PoX version: a node that serves staking is past Epoch 4.0, where every lock
 * is PoX-5.
 */
export function isStakingLock(before: StxBalance | null, after: StxBalance, snapshot?: AddressSnapshot): boolean {
  const version = after.locked > 0n ? after.poxVersion : before?.poxVersion;
  return version === undefined ? !!snapshot?.staking : version === 5;
}
