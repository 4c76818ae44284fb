import type { InboxEntry } from './alerts/inbox.ts';
import { isRecord } from './is-record.ts';
import { isNetwork } from './network.ts';
import { err, ok, type Result } from './result.ts';
import type { AddressSnapshot } from './state/snapshot.ts';

/**
 * The shapes of stored inbox entries and snapshots, checked before the screens read them: a record that another
 * version wrote, or that the disk damaged, is left out and named (why, in the user's words) instead of breaking a
 * screen. Pure. The checks cover what the screens and the engine read without looking first.
 */

const isTime = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

export function readInboxRecord(raw: unknown, key: string): Result<InboxEntry, string> {
  if (!isRecord(raw)) return err('not a record');
  if (raw['id'] !== key) return err('stored under another alert’s key');
  if (!isNetwork(raw['network'])) return err('no network');
  for (const field of ['principal', 'phase', 'title', 'body', 'path'])
    if (typeof raw[field] !== 'string') return err(`its ${field} is not text`);
  if (raw['txId'] !== null && typeof raw['txId'] !== 'string') return err('its transaction id is not text');
  if (!isTime(raw['at']) || !isTime(raw['firstAt'])) return err('its time is not a time');
  // `undelivered` came later: an older entry has none (it was shown).
  if (typeof raw['read'] !== 'boolean' || !['boolean', 'undefined'].includes(typeof raw['undelivered']))
    return err('its state is unknown');
  if (!Array.isArray(raw['deliveries']) || !raw['deliveries'].every(isRecord))
    return err('how it was shown is not a list');
  // `pair` came later, and only on a side of a transaction between watched addresses (`parties` later still).
  const pair = raw['pair'];
  if (
    pair !== undefined &&
    !(
      isRecord(pair) &&
      ['key', 'from', 'to', 'title', 'body'].every((field) => typeof pair[field] === 'string') &&
      isRecord(pair['sides']) &&
      (pair['parties'] === undefined ||
        (Array.isArray(pair['parties']) && pair['parties'].every((party) => typeof party === 'string')))
    )
  )
    return err('the transfer it is a side of does not read');
  return ok(raw as unknown as InboxEntry);
}

export const SNAPSHOT_VERSION = 1;

/** A stored snapshot of this version (`undefined` for another version: a cache, it is simply read again). */
export function readSnapshotRecord(raw: unknown, key: string): Result<AddressSnapshot | undefined, string> {
  if (!isRecord(raw)) return err('not a record');
  if (raw['version'] !== SNAPSHOT_VERSION) return ok(undefined);
  const snapshot = raw['snapshot'];
  if (!isRecord(snapshot)) return err('no snapshot in it');
  if (snapshot['principal'] !== key) return err('stored under another address');
  if (!isNetwork(snapshot['network'])) return err('no network');
  const stx = snapshot['stx'];
  if (stx !== null && !(isRecord(stx) && ['total', 'available', 'locked'].every((f) => typeof stx[f] === 'bigint')))
    return err('the STX balance is not an amount');
  for (const list of ['recent', 'pending'] as const) {
    const activities = snapshot[list];
    if (!Array.isArray(activities) || !activities.every(isActivity)) return err('its activity does not read');
  }
  const holdings = snapshot['holdings'];
  // `holdings` and `syncedHeight` came later: a snapshot stored before them has neither.
  if (
    holdings !== null &&
    holdings !== undefined &&
    !(isRecord(holdings) && holdings['tokens'] instanceof Map && holdings['nfts'] instanceof Map)
  )
    return err('its tokens do not read');
  if (snapshot['syncedAt'] !== null && !isTime(snapshot['syncedAt'])) return err('when it was read is not a time');
  return ok(snapshot as unknown as AddressSnapshot);
}

const isActivity = (value: unknown): boolean =>
  isRecord(value) &&
  typeof value['txId'] === 'string' &&
  typeof value['status'] === 'string' &&
  typeof value['stxNet'] === 'bigint' &&
  typeof value['fee'] === 'bigint' &&
  isTime(value['time']);
