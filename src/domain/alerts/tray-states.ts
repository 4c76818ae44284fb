import type { NotificationContent, NotificationData } from '../text/notification-content.ts';

// What the notifications on the tray tell, by transaction and state: what a sound is for (tray.ts's placeOnTray), and
// what a fee bump's replaced transaction leaves to its replacement.

/** A notification as the tray holds it, as far as its states go. */
interface Told {
  readonly tag: string;
  readonly data: NotificationData;
  readonly phases?: NotificationContent['phases'];
}

/** `network:txId` of an alert id (`network:principal:subject`). */
export const txKeyOf = (id: string): string => {
  const [network, , subject] = id.split(':');
  return `${network}:${subject}`;
};

/**
 * The states of transactions a notification tells, one per transaction whichever side tells it (`network:txId|phase`);
 * an alert of no transaction (a lock, a staking alert) is news whenever it is told again (its words carry the
 * change): `null`, never the same as what was shown.
 */
export function statesOf(notification: Omit<Told, 'tag'>): (string | null)[] {
  const { data } = notification;
  const phases =
    notification.phases ??
    (data.pair
      ? Object.fromEntries(Object.entries(data.pair.sides).map(([id, side]) => [id, side.phase]))
      : data.summary
        ? Object.fromEntries((data.summary.lines ?? []).map((line) => [line.id, line.phase]))
        : data.phase && data.ids[0]
          ? { [data.ids[0]]: data.phase }
          : {});
  return Object.entries(phases).map(([id, phase]) => {
    const [network, , subject = ''] = id.split(':');
    return subject.startsWith('0x') ? `${network}:${subject}|${phase}` : null;
  });
}

const MINED = ['confirmed', 'failed'] as const;

/**
 * The notifications of transactions a fee bump replaced ("Fee raised: Sending 1.00 STX"), once the one that took their
 * place is mined: told now, the payment is that one, and nothing on the tray says otherwise.
 */
export function replacedOnTray(tray: readonly Told[], content: NotificationContent): string[] {
  const { phase, summary, ids } = content.data;
  if (summary || (phase !== 'confirmed' && phase !== 'failed')) return [];
  const mined = new Set(ids.map(txKeyOf));
  return tray
    .filter(({ tag, data }) => tag !== content.tag && data.replacedBy !== undefined && mined.has(data.replacedBy))
    .map(({ tag }) => tag);
}

/**
 * A fee bump's replaced transaction whose replacement the tray tells mined already (in a notification of its own, a
 * pair or a summary's line: the two were told at once, or the replacement first): nothing to show.
 */
export function supersededOnTray(tray: readonly Told[], content: NotificationContent): boolean {
  const by = content.data.replacedBy;
  if (by === undefined) return false;
  const mined = new Set(MINED.map((phase) => `${by}|${phase}`));
  return tray.some((notification) => statesOf(notification).some((state) => state !== null && mined.has(state)));
}
