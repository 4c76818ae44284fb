import { howShown, type DeliveryVia, type InboxEntry } from './inbox.ts';
import { correcting, replacedBy, trayChanges, trayOf, type OnTray } from './tray-view.ts';
import { itemTag, newsKey, summaryTag, type NotificationContent } from '../text/notification-content.ts';

// Telling alerts the inbox holds (sw/tray.ts asks, for the page's alerts and the relay's pushes alike): as toasts or
// on the tray, which tray-view.ts computes from the inbox; and how each reached the user.

/** How a batch of alerts is told, and what it does to the tray. */
export interface Telling {
  /** How each alert asked about reached the user. */
  readonly via: Map<string, DeliveryVia>;
  /** Toasts for the focused window, when the user wants those while the app is in front. */
  readonly toasts: NotificationContent[];
  /** Notifications to show (replacing any under the same tag), and tags to close. */
  readonly show: NotificationContent[];
  readonly close: string[];
}

/**
 * Tells the latest states of alerts `ids` (stored in `inbox` with where each goes on the tray): as toasts when the
 * app is in front and the user wants those (`toast`), else on the tray, which is made to match what the inbox says
 * of every alert it shows and of these. A state shown already (`shownBefore`: by an earlier push, or a moment ago
 * before the page recorded it) is not told again: where the user closed it, it stays closed.
 */
export function tell(
  inbox: ReadonlyMap<string, InboxEntry>,
  ids: readonly string[],
  screen: readonly OnTray[],
  how: { readonly toast: boolean; readonly granted: boolean },
  shownBefore: (entry: InboxEntry) => DeliveryVia | null,
): Telling {
  const via = new Map<string, DeliveryVia>();
  const stored = (id: string) => placedAnyway(inbox.get(id), screen);
  const before = new Map<string, DeliveryVia>();
  const asked = ids.flatMap((id) => {
    const entry = stored(id);
    const shown = entry && shownBefore(entry);
    if (shown) before.set(id, shown);
    return entry && !shown ? [entry] : [];
  });
  // In front, an alert on screen whose later state is stored but not told yet (its own tell comes next) is toasted
  // now: the tray, redrawn from the inbox, would otherwise ring with it, and its toast come after.
  const askedIds = new Set(ids);
  const early = how.toast
    ? [...new Set(screen.flatMap(({ data }) => data.ids))].flatMap((id) => {
        const entry = askedIds.has(id) ? undefined : stored(id);
        return entry?.undelivered && !shownBefore(entry) ? [entry] : [];
      })
    : [];
  const toasts = how.toast ? trayOf([...asked, ...early], screen) : [];
  for (const content of toasts) for (const id of content.data.ids) via.set(id, 'toast');
  // A notification none of whose alerts the inbox holds any more (it keeps the newest 2,000) stays as it is.
  const known = how.granted ? screen.filter(({ data }) => data.ids.some((id) => inbox.has(id))) : [];
  const live = new Set([
    ...known.flatMap(({ data }) => data.ids),
    ...(how.toast ? [] : [...asked.map(({ id }) => id), ...replacedAgain(inbox, asked)]),
  ]);
  for (const id of via.keys()) live.delete(id);
  const entries = [...live].flatMap((id) => stored(id) ?? []);
  const next = how.granted ? trayOf(entries, known) : [];
  for (const id of ids) {
    const carrier = next.find((content) => content.data.ids.includes(id));
    if (!via.has(id))
      via.set(id, !carrier ? (before.get(id) ?? 'inbox') : carrier.data.summary ? 'summary' : 'notification');
  }
  return { via, toasts, ...trayChanges(known, next) };
}

/**
 * The fee bumps replaced by a transaction told reverted now (or back in the mempool after a revert): their
 * notification left the tray once it was told mined, and the reason it left is gone, so they are on the tray again
 * (quietly: their own state is no news) until it is mined again.
 */
function replacedAgain(inbox: ReadonlyMap<string, InboxEntry>, asked: readonly InboxEntry[]): string[] {
  const undone = new Set(
    asked.filter((entry) => entry.phase !== 'dropped' && correcting(entry)).map((entry) => newsKey(entry.id)),
  );
  if (undone.size === 0) return [];
  return [...inbox.values()]
    .filter((entry) => entry.phase === 'dropped' && entry.tray && undone.has(replacedBy(entry) ?? ''))
    .map(({ id }) => id);
}

/**
 * An entry stored before placements were kept (a version before this one) goes where the tray shows it, else on its
 * own; a correction always on its own, a quiet one nowhere.
 */
function placedAnyway(entry: InboxEntry | undefined, screen: readonly OnTray[]): InboxEntry | undefined {
  if (!entry || entry.tray || entry.quiet) return entry;
  const carrier = screen.find(({ data }) => data.summary && data.ids.includes(entry.id));
  const summary = carrier?.tag ?? (howShown(entry) === 'summary' ? summaryTag(entry.network, entry.principal) : null);
  return { ...entry, tray: { tag: summary && !correcting(entry) ? summary : itemTag(entry.id) } };
}
