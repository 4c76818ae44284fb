/** Where a device's log at the relay stands, and whether the relay started a new one. */
const isCursor = (text: string | null): text is string => text !== null && /^\d{1,30}$/.test(text);

/**
 * A device's log at the relay only moves forward, and a PUT answers where it stands: behind where this device stood
 * when it sent the PUT, it is a new log (the relay forgot the device when its push service answered 404 or 410, and
 * took it again). The next catch-up reads it from there; kept, the old cursor would skip every alert until the new log
 * passed it.
 */
export const isNewLog = (relayCursor: string, ours: string | null): boolean =>
  isCursor(relayCursor) && isCursor(ours) && BigInt(relayCursor) < BigInt(ours);
