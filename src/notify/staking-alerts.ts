import { isNews, record, type AlertLedger, type AlertPhase } from '../domain/alerts/alert-ledger.ts';
import type { AlertRules } from '../domain/alerts/alert-rules.ts';
import type { AddressSnapshot, StxBalance } from '../domain/state/snapshot.ts';
import { SBTC_CLAIMABLE_MINIMUM, stakingNews } from '../domain/alerts/staking-news.ts';
import type { StakingChange } from '../monitor/staking-keeper.ts';

type Tell = (subject: string, phase: AlertPhase, amount: bigint) => void;

/**
 * Judges one staking read against the address's ledger: every change it brings is recorded (told or not, under
 * the "Staking" rule), so the same change read again is never told twice. The first read is history.
 */
export function judgeStaking(change: StakingChange, start: AlertLedger, rules: AlertRules, tell: Tell): AlertLedger {
  if (change.before === null) return start;
  const threshold = rules.minimums[SBTC_CLAIMABLE_MINIMUM] ?? 0n;
  let ledger = start;
  for (const news of stakingNews(change.before, change.after, change.burnHeight, threshold)) {
    if (!isNews(ledger, news.subject, news.phase, null)) continue;
    const told = !rules.muted && rules.stacking;
    ledger = record(ledger, news.subject, news.phase, null, told);
    if (told) tell(news.subject, news.phase, news.amount);
  }
  return ledger;
}

/**
 * A PoX-5 lock is told from the staking reads (with its cycles); the balance tells pox-4 locks only. A balance
 * event (v1 shape) does not say its PoX version: a node that serves staking is past Epoch 4.0, where every lock
 * is PoX-5.
 */
export function isStakingLock(before: StxBalance | null, after: StxBalance, snapshot?: AddressSnapshot): boolean {
  const version = after.locked > 0n ? after.poxVersion : before?.poxVersion;
  return version === undefined ? !!snapshot?.staking : version === 5;
}
