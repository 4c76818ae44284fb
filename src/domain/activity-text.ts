import { formatStx } from './amount.ts';
import type { Activity } from './snapshot.ts';

/** `ST3TBRT2…7MJ7X4`, `ST3T…X4.demo-vault`: enough to recognise, short enough for a row. */
export function shortPrincipal(principal: string): string {
  const [address = '', contract] = principal.split('.');
  const short = address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;
  return contract ? `${short}.${contract}` : short;
}

/** What happened, in a few words a person understands at a glance. */
export function describeActivity(activity: Activity): string {
  const amount = formatStx(activity.stxNet < 0n ? -activity.stxNet : activity.stxNet, 6);
  let what: string;
  if (activity.kind === 'token_transfer') what = activity.stxNet >= 0n ? `Received ${amount}` : `Sent ${amount}`;
  else if (activity.contractCall) {
    const contract = activity.contractCall.contractId.split('.')[1] ?? activity.contractCall.contractId;
    what = `Called ${contract}.${activity.contractCall.functionName}`;
  } else what = 'Transaction';
  if (activity.status === 'failed') return `Failed: ${what}`;
  if (activity.status === 'dropped') return `Dropped: ${what}`;
  return activity.status === 'pending' ? `${what} — pending` : what;
}

/** "just now", "5 min ago", "3 h ago", then the date. */
export function formatAge(thenMs: number, nowMs: number): string {
  const seconds = Math.max(0, Math.round((nowMs - thenMs) / 1000));
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(thenMs).toLocaleDateString();
}
