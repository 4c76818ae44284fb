/// <reference lib="webworker" />
import { partiesOf, tokensOf } from '../domain/alerts/alert-facts.ts';
import { sameOriginPath } from '../domain/alerts/alert-path.ts';
import { readAlertFacts } from '../domain/alerts/alert-facts-read.ts';
import { itemTag, type NotificationContent } from '../domain/text/notification-content.ts';
import { pairTag, type PairWords } from '../domain/alerts/transfer-pair.ts';
import type { AlertPhase } from '../domain/alerts/alert-ledger.ts';
import { deviceWords } from '../domain/alerts/device-words.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';
import { isStale, stateShown, withRelayAlert, withShown } from '../domain/relay/relay-inbox.ts';
import { decodePushPayload, type RelayAlert } from '../domain/relay/relay-message.ts';
import { showAgainQuietly, showAlert, showQuietly } from './alerts.ts';
import { serially } from './queues.ts';
import { readDeviceNames, readInboxEntry, readWhileOpen, updateInboxEntry } from './records.ts';

const INBOX_CHANNEL = 'stacks-watch:inbox';

/*
 * Who shows a system notification, decided here so that one alert state is shown at most once whichever source comes
 * first: while "Alerts when the app is closed" is on, the relay's push owns system notifications (it is the only
 * source that works with the app closed, and an installed phone app is closed almost always); the open app still
 * judges, stores and may toast. Both sources pass through this service worker, one at a time per notification tag (`serially`), and both
 * check the inbox entry's deliveries, plus the states shown in this worker's lifetime (the page records its
 * deliveries a moment after the worker showed them: that gap must not let a push show the same state again).
 */
/** The state of each alert this worker last showed. */
const shownHere = new Map<string, AlertPhase>();

/**
 * A push from the relay: worded with this device's labels, stored in the inbox under the alert's id and shown once,
 * unless that state was shown. `proposed`: the browser holds a declarative notification it shows unless this worker
 * shows one (Safari): a state already shown is then shown again quietly under its tag rather than twice.
 */
export async function handlePush(data: { json(): unknown } | null, proposed = false): Promise<void> {
  let raw: unknown;
  try {
    raw = data?.json();
  } catch {
    raw = undefined;
  }
  const alert = decodePushPayload(raw);
  if (!alert.ok) {
    console.warn(`Ignoring a push message: ${alert.error}`);
    return;
  }
  const { id, phase } = alert.value;
  await serially(async () => {
    const before = await readInboxEntry(id);
    const told = stateShown(before, phase) || shownHere.get(id) === phase;
    // A late pending after the app saw it mined tells nothing.
    if (told || (isStale(before, alert.value) && before?.phase !== phase)) {
      if (proposed && before) await showAgainQuietly(before, navigateTo(before.path));
      return;
    }
    const worded = await inDeviceWords(alert.value, before);
    const entry = withRelayAlert(before, worded);
    const navigate = proposed ? navigateTo(entry.path) : undefined;
    // The other sides of a transaction between watched addresses, pushed apart, join this one on screen (tray.ts).
    const pair = worded.pair && worded.phase === phase ? worded.pair : undefined;
    // Back in the mempool after a revert this device showed: the revert's notification changes words, quietly.
    const revertShown =
      (alert.value.afterRevert === true || alert.value.facts?.afterRevert === true) &&
      (stateShown(before, 'reverted') || shownHere.get(id) === 'reverted');
    const content: NotificationContent = {
      title: entry.title,
      body: entry.body,
      tag: pair ? pairTag(pair.key) : itemTag(id),
      renotify: !revertShown,
      data: { ids: [id], path: entry.path, summary: null, phase, ...(pair ? { pair } : {}) },
    };
    const via = await showAlert({ type: 'ALERT', content, whileOpen: await readWhileOpen() }, navigate);
    // Toasted in the open app: the browser would still show its proposed notification, in the relay's words.
    if (navigate && via === 'toast') await showQuietly(content, navigate);
    if (via !== 'inbox') shownHere.set(id, phase);
    await updateInboxEntry(id, (current) => withShown(withRelayAlert(current, worded), via, Date.now()));
    const channel = new BroadcastChannel(INBOX_CHANNEL);
    channel.postMessage('changed');
    channel.close();
  }, queueOf(id));
}

/**
 * The queue of an alert's notifications: one per transaction, shared by the page's alerts and the relay's pushes
 * (one state shown once whichever comes first) and by both sides of a transfer between two watched addresses.
 */
export const queueOf = (alertId: string): string => `alert:${alertId.replace(/^([^:]+):[^:]+:/, '$1:')}`;

/** A path built on the device (domain/alerts/alert-path.ts), on this origin: a declarative notification's default action. */
const navigateTo = (path: string): string =>
  `${self.location.origin}${sameOriginPath(path, self.location.origin) ?? '/'}`;

/**
 * The relay's alert in this device's words (its labels, the names it knows), when the relay sent the facts; else, or
 * when they cannot be read, as the relay worded it.
 */
async function inDeviceWords(
  alert: RelayAlert,
  before: InboxEntry | undefined,
): Promise<RelayAlert & { pair?: PairWords }> {
  if (!alert.facts) return alert;
  const facts = readAlertFacts(alert.facts);
  if (!facts.ok) return alert;
  try {
    const names = await readDeviceNames(partiesOf(alert.facts).concat(alert.principal), tokensOf(alert.facts));
    const told = before && before.phase !== alert.phase ? before : undefined;
    return { ...alert, ...deviceWords(alert, facts.value, names, told) };
  } catch (error) {
    console.warn('Showing a push in the relay’s words: this device’s names could not be read', error);
    return alert;
  }
}

/**
 * The open app's alert, asked of the worker: not shown again when every alert it carries was already shown in its
 * current state (by a push, see above); 'inbox' tells the page that this source only stored it.
 */
export async function alreadyShownByPush(content: NotificationContent): Promise<boolean> {
  const entries = await Promise.all(content.data.ids.map((id) => readInboxEntry(id).catch(() => undefined)));
  return (
    entries.length > 0 &&
    entries.every((entry) => {
      if (entry === undefined) return false;
      const phase = content.phases?.[entry.id] ?? entry.phase;
      return stateShown(entry, phase) || shownHere.get(entry.id) === phase;
    })
  );
}

/** Remembers what the open app's alert showed, for the moment before the page records it. */
export async function rememberShown(content: NotificationContent): Promise<void> {
  const entries = await Promise.all(content.data.ids.map((id) => readInboxEntry(id).catch(() => undefined)));
  // The state this notification told, not the entry's: the page may have stored a later one meanwhile.
  for (const entry of entries) if (entry) shownHere.set(entry.id, content.phases?.[entry.id] ?? entry.phase);
}
