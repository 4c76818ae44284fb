import { isStale, withRelayAlert, withShown } from '../domain/relay/relay-inbox.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';
import type { MissedAddress, RelayAlert } from '../domain/relay/relay-message.ts';
import type { RelayClient, RelayDevice } from '../chain/page/relay-client.ts';
import type { Inbox } from '../store/inbox.ts';
import type { RelayWords } from './relay-words.ts';

/** At most this many pages (200 alerts each) per catch-up: the relay keeps a device's last 500. */
const MAX_PAGES = 5;

/**
 * Merges what the relay told this device since `cursor` into the inbox, in one request per 200 alerts rather than one
 * per address. States already known are left alone; new ones land unread in the inbox without a notification: the
 * push that carried each one shows it (the service worker owns system notifications while push is on), and one
 * that never arrived is at least in the inbox now. Resolves with the cursor to start from next time, and the addresses
 * whose states the relay no longer kept (a cursor older than its last 500): those must be read over REST.
 */
export async function catchUpFromRelay(
  client: RelayClient,
  device: RelayDevice,
  inbox: Inbox,
  cursor: string | null,
  now: () => number = Date.now,
  words: RelayWords = (alert) => alert,
): Promise<{ cursor: string | null; merged: number; missed: MissedAddress[] }> {
  let after = cursor;
  let merged = 0;
  const missed = new Map<string, MissedAddress>();
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const { alerts, next, more, missed: gap } = await client.alertsAfter(device, after);
    for (const address of gap) missed.set(`${address.network}:${address.principal}`, address);
    merged += await mergeRelayAlerts(inbox, alerts, now(), words);
    after = next;
    if (!more || alerts.length === 0) break;
  }
  return { cursor: after, merged, missed: [...missed.values()] };
}

/**
 * Stores relay alerts in the inbox (the latest state of each id), in this device's words; resolves with how many
 * entries changed.
 */
export async function mergeRelayAlerts(
  inbox: Inbox,
  alerts: readonly RelayAlert[],
  at: number,
  words: RelayWords = (alert) => alert,
): Promise<number> {
  const latest = new Map(alerts.map((alert) => [alert.id, alert]));
  let merged = 0;
  await inbox.change(
    new Map(
      [...latest].map(([id, alert]) => [
        id,
        (entry: InboxEntry | undefined) => {
          if (isStale(entry, alert)) return entry;
          merged += 1;
          return withShown(withRelayAlert(entry, words(alert, entry)), 'inbox', at);
        },
      ]),
    ),
  );
  return merged;
}
