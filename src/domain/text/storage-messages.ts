/**
 * What the app tells its user when the device's storage misbehaves under it, in the UI's words: what happened, what
 * was kept, and what to do. Pure: the screens pass in what they know.
 */

/** Another tab keeps a database open at an older version, and this tab has to wait for it to open its own. */
export const BLOCKED_MESSAGE =
  'Stacks Watch is open in another tab that still uses an older version of its storage, and this tab cannot open ' +
  'your data until that tab lets go. Close the other Stacks Watch tabs (or reload them): this tab goes on by ' +
  'itself once they are closed.';

/** A newer version of the app, in another tab, upgraded a database: this tab let go of it and can no longer save. */
export const REPLACED_MESSAGE =
  'Stacks Watch was updated in another tab, so this tab can no longer save changes. Reload this tab to go on with ' +
  'the new version; what is on screen here stays until then.';

/** The site's data was deleted while the app was open; this tab saved again what it still held. */
export function describeCleared(addresses: number | null): string {
  const list =
    addresses === null || addresses === 0
      ? 'your settings'
      : `your watch list (${addresses} ${addresses === 1 ? 'address' : 'addresses'}), settings and alerts`;
  return (
    `Stacks Watch's data on this device was deleted while the app was open (site data was cleared). This tab has ` +
    `saved again what it still showed: ${list}. To remove everything, close every Stacks Watch tab before clearing ` +
    'site data.'
  );
}

/** A stored watch list that did not read whole. */
export interface WatchlistDamage {
  /** Why nothing of it could be read, or null when only some entries could not. */
  readonly reason: string | null;
  /** Each unreadable entry, with why. */
  readonly dropped: readonly string[];
}

/** What is wrong with the stored watch list, what is shown, and that nothing is saved over it until the user says. */
export function describeWatchlistDamage(damage: WatchlistDamage, shown: number): string {
  const what =
    damage.reason !== null
      ? `Your stored watch list is damaged (${damage.reason}) and none of it could be read.`
      : `${count(damage.dropped.length, 'entry', 'entries')} of your stored watch list could not be read: ` +
        `${damage.dropped.slice(0, 2).join('; ')}${damage.dropped.length > 2 ? '; …' : ''}. ` +
        `The ${count(shown, 'address', 'addresses')} that could be read ${shown === 1 ? 'is' : 'are'} shown below.`;
  return (
    `${what} The damaged record is kept on this device as it was, and nothing is saved over it until you choose: ` +
    'download it to keep a copy, then save the list below. Changes you make meanwhile stay on this screen only.'
  );
}

/** A stored record other than the watch list that could not be read. */
export interface DamagedRecord {
  /** What it is, as the user knows it: “the alert settings”, “an alert in the inbox”. */
  readonly record: string;
  /** What is wrong with it: “its title is not text”. */
  readonly reason: string;
  /** What the app does instead: “the defaults are used”. */
  readonly instead: string;
}

/** One sentence a record, the first three of them; then what to do. */
export function describeDamagedRecords(records: readonly DamagedRecord[]): string {
  const told = records
    .slice(0, 3)
    .map(
      ({ record, reason, instead }) => `${record.charAt(0).toUpperCase()}${record.slice(1)}: ${reason}; ${instead}.`,
    );
  const more = records.length > 3 ? ` And ${count(records.length - 3, 'other record', 'other records')}.` : '';
  return (
    `Some data stored on this device could not be read. ${told.join(' ')}${more} ` +
    'Download the damaged data to keep a copy.'
  );
}

const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
