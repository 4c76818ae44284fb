/// <reference lib="webworker" />
import { partiesOf, tokensOf } from '../domain/alerts/alert-facts.ts';
import { sameOriginPath } from '../domain/alerts/alert-path.ts';
import { readAlertFacts } from '../domain/alerts/alert-facts-read.ts';
import { itemTag } from '../domain/text/notification-content.ts';
import type { PairWords } from '../domain/alerts/transfer-pair.ts';
import { deviceWords } from '../domain/alerts/device-words.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';
import { holdsState, pushTellsNothing, withRelayAlert, withShown } from '../domain/relay/relay-inbox.ts';
import { decodePushPayload, type RelayAlert } from '../domain/relay/relay-message.ts';
import { showAgainQuietly, showQuietly } from './alerts.ts';
import { readDeviceNames, readInboxEntry, readWhileOpen, updateInboxEntry } from './records.ts';
import { serially } from './queues.ts';
import { tellOnTray } from './tray.ts';

const INBOX_CHANNEL = 'stacks-watch:inbox';

/*
 * Who shows a system notification, decided here so that one alert state is shown at most once whichever source comes
 * first: while "Alerts when the app is closed" is on, the relay's push owns system notifications (it is the only
 * source that works with the app closed, and an installed phone app is closed almost always); the open app still
 * judges, stores and may toast. Both land in the inbox and ask the tray to tell them (tray.ts), which checks the
 * entry's deliveries and the states it showed in this worker's lifetime.
 */

/**
 * A push from the relay: each alert it carries (one, or the sides of one transaction this device watches, in one
 * state) worded with this device's labels, stored in the inbox under its own id and told once, unless that state was
 * shown; the sides together on one notification (tray-view.ts). `proposed`: the browser holds a declarative
 * notification it shows unless this worker shows one (Safari): a state already shown is then shown again quietly under
 * its tag rather than twice.
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
  // One push at a time (two states of one alert may be in flight): each reads what the one before stored.
  await serially(() => tellPush(sides.value, proposed), 'push');
}

async function tellPush(sides: readonly RelayAlert[], proposed: boolean): Promise<void> {
  const fresh: RelayAlert[] = [];
  let shownBefore: InboxEntry | undefined;
  for (const alert of sides) {
    const before = await readInboxEntry(alert.id);
    if (pushTellsNothing(before, alert)) shownBefore ??= before;
    else {
      const worded = await inDeviceWords(alert, before);
      // Stored as news to tell (withShown records it told). The same state the open app stored keeps the place it
      // planned for it and its pair's words; another goes on its own, with its other sides (a push must show one).
      await updateInboxEntry(alert.id, (current) => {
        const same = current && holdsState(current, alert) ? current : undefined;
        const pair = same ? same.pair : worded.pair;
        return {
          ...withRelayAlert(current, worded),
          undelivered: !same || same.undelivered,
          ...(pair ? { pair } : {}),
          tray: same?.tray ?? { tag: itemTag(alert.id) },
        };
      });
      fresh.push(alert);
    }
  }
  if (fresh.length === 0) {
    if (proposed && shownBefore) await showAgainQuietly(shownBefore, navigateTo(shownBefore.path));
    return;
  }
  const ids = fresh.map(({ id }) => id);
  const navigate = proposed ? navigateTo((await readInboxEntry(ids[0]!))?.path ?? '/') : undefined;
  const told = await tellOnTray(ids, await readWhileOpen(), navigate);
  // Toasted in the open app, or shown a moment ago by the open app: the browser would still show its proposed
  // notification, in the relay's words, unless one is shown in its place.
  const first = ids[0]!;
  const toast = told.toasts.find((content) => content.data.ids.includes(first));
  if (navigate && toast) await showQuietly(toast, navigate);
  else if (navigate && !told.show.some((content) => content.data.ids.includes(first))) {
    const entry = await readInboxEntry(first);
    if (entry) await showAgainQuietly(entry, navigate);
  }
  // Recorded for the state told (the open app may have stored a later one meanwhile: that one is still to tell).
  const pushed = new Map(fresh.map((alert) => [alert.id, alert]));
  for (const id of ids)
    await updateInboxEntry(id, (current) =>
      current && holdsState(current, pushed.get(id)!)
        ? withShown(current, told.via.get(id) ?? 'inbox', Date.now())
        : undefined,
    );
  const channel = new BroadcastChannel(INBOX_CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

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
