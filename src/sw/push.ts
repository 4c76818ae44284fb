/// <reference lib="webworker" />
import { partiesOf, tokensOf } from '../domain/alerts/alert-facts.ts';
import { sameOriginPath } from '../domain/alerts/alert-path.ts';
import { readAlertFacts } from '../domain/alerts/alert-facts-read.ts';
import { itemTag, type NotificationContent } from '../domain/text/notification-content.ts';
import { pairTag, type PairWords } from '../domain/alerts/transfer-pair.ts';
import type { AlertPhase } from '../domain/alerts/alert-ledger.ts';
import { deviceWords } from '../domain/alerts/device-words.ts';
import { subjectOfBody } from '../domain/text/alert-text.ts';
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
 * A push from the relay: each alert it carries (one, or the sides of one transaction this device watches, in one
 * state) worded with this device's labels, stored in the inbox under its own id and shown once, unless that state was
 * shown; the sides together on one notification. `proposed`: the browser holds a declarative notification it shows
 * unless this worker shows one (Safari): a state already shown is then shown again quietly under its tag rather than
 * twice.
 */
export async function handlePush(data: { json(): unknown } | null, proposed = false): Promise<void> {
  let raw: unknown;
  try {
    raw = data?.json();
  } catch {
    raw = undefined;
  }
  const sides = decodePushPayload(raw);
  if (!sides.ok) {
    console.warn(`Ignoring a push message: ${sides.error}`);
    return;
  }
  await serially(async () => {
    const fresh: Fresh[] = [];
    let shownBefore: InboxEntry | undefined;
    for (const alert of sides.value) {
      const before = await readInboxEntry(alert.id);
      const told = stateShown(before, alert.phase) || shownHere.get(alert.id) === alert.phase;
      // A late pending after the app saw it mined tells nothing.
      if (told || (isStale(before, alert) && before?.phase !== alert.phase)) shownBefore ??= before;
      else fresh.push({ alert, worded: await inDeviceWords(alert, before), before });
    }
    if (fresh.length === 0) {
      if (proposed && shownBefore) await showAgainQuietly(shownBefore, navigateTo(shownBefore.path));
      return;
    }
    const content = contentOf(fresh);
    const navigate = proposed ? navigateTo(content.data.path) : undefined;
    const via = await showAlert({ type: 'ALERT', content, whileOpen: await readWhileOpen() }, navigate);
    // Toasted in the open app: the browser would still show its proposed notification, in the relay's words.
    if (navigate && via === 'toast') await showQuietly(content, navigate);
    for (const { alert, worded } of fresh) {
      if (via !== 'inbox') shownHere.set(alert.id, alert.phase);
      await updateInboxEntry(alert.id, (current) => withShown(withRelayAlert(current, worded), via, Date.now()));
    }
    const channel = new BroadcastChannel(INBOX_CHANNEL);
    channel.postMessage('changed');
    channel.close();
  }, queueOf(sides.value[0].id));
}

/** A side of a push that tells something new: as the relay sent it, in this device's words, and its entry before. */
interface Fresh {
  readonly alert: RelayAlert;
  readonly worded: RelayAlert & { pair?: PairWords };
  readonly before: InboxEntry | undefined;
}

/**
 * The one notification for a push's new sides: the first side's, with every side of the transaction in the pair it
 * tells (tray.ts words two sides or more as the transaction, and joins those already on screen); without a pair (the
 * relay sent no facts), the first side's words, each other side's title on a line of the body.
 */
function contentOf(fresh: readonly Fresh[]): NotificationContent {
  const entries = fresh.map(({ before, worded }) => withRelayAlert(before, worded));
  const [first, entry] = [fresh[0]!, entries[0]!];
  const { id, phase } = first.alert;
  const words = fresh.find(({ worded }) => worded.pair && worded.phase === phase)?.worded.pair;
  const sides = Object.fromEntries(
    fresh.map(({ alert, worded }, index) => [
      alert.id,
      worded.pair?.sides[alert.id] ?? { phase, title: entries[index]!.title, body: entries[index]!.body },
    ]),
  );
  const pair = words ? { ...words, sides } : undefined;
  // Back in the mempool after a revert this device showed: the revert's notification changes words, quietly.
  const revertShown = ({ alert, before }: Fresh) =>
    (alert.afterRevert === true || alert.facts?.afterRevert === true) &&
    (stateShown(before, 'reverted') || shownHere.get(alert.id) === 'reverted');
  // A fee bump's replaced transaction names the one that took its place: its notification leaves once that is mined.
  const facts = phase === 'dropped' && first.alert.facts ? readAlertFacts(first.alert.facts) : null;
  const replacedBy = facts?.ok ? facts.value.activity?.replacedBy : null;
  // Without the pair's words, every side still says its own below the first: each is recorded as shown.
  const others = pair ? [] : entries.slice(1).map((side) => `${subjectOfBody(side.body)}: ${side.title}`);
  return {
    title: entry.title,
    body: [entry.body, ...others].join('\n'),
    tag: pair ? pairTag(pair.key) : itemTag(id),
    renotify: !fresh.every(revertShown),
    data: {
      ids: Object.keys(sides),
      path: entry.path,
      summary: null,
      phase,
      ...(pair ? { pair } : {}),
      ...(replacedBy ? { replacedBy: `${first.alert.network}:${replacedBy}` } : {}),
    },
  };
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
