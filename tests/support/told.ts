import { emptyPlanState, placeBatch, type AlertItem, type PlanLimits } from '../../src/domain/alerts/alert-plan.ts';
import { howShown, withDelivery, type InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { trayOf } from '../../src/domain/alerts/tray-view.ts';
import { tell } from '../../src/domain/alerts/tray-tell.ts';
import type { Network } from '../../src/domain/network.ts';
import { shownVia } from '../../src/domain/relay/relay-inbox.ts';
import type { TextContext } from '../../src/domain/text/alert-text.ts';
import { itemTag, withAlertWorded, type NotificationContent } from '../../src/domain/text/notification-content.ts';

/** One alert told on its own: the notification its stored entry makes alone on the tray. */
export function toldAlone(item: AlertItem, context: TextContext, before?: InboxEntry): NotificationContent {
  const entry = withAlertWorded(before, item, context, {
    tag: itemTag(item.id),
    ...(item.catchUp ? { away: true as const } : {}),
  });
  return trayOf([entry], [])[0]!;
}

/**
 * The inbox and the system tray driven as the alerter and the service worker drive them, batch by batch: each batch
 * planned against how its alerts were told before, stored with where each goes, told on the tray, recorded.
 */
export class TrayModel {
  readonly screen = new Map<string, NotificationContent>();
  readonly inbox = new Map<string, InboxEntry>();
  private plan = emptyPlanState();

  constructor(
    private readonly context: TextContext,
    private readonly options: {
      readonly limits?: PlanLimits;
      readonly watched?: (network: Network, principal: string) => boolean;
      /** The app in front, its user wanting toasts: alerts told as toasts. */
      readonly toast?: boolean;
    } = {},
  ) {}

  /** Plans, stores and tells one batch; returns the notifications (or toasts) it showed, with their sound. */
  batch(items: readonly AlertItem[], now = 0): NotificationContent[] {
    const shownAs = (id: string) => howShown(this.inbox.get(id));
    const { placed, state } = placeBatch(items, this.plan, now, shownAs, this.options.limits, this.options.watched);
    this.plan = state;
    for (const item of items) {
      const before = this.inbox.get(item.id);
      const tray = placed.has(item.id) ? placed.get(item.id) : before?.tray;
      this.inbox.set(item.id, withAlertWorded(before, item, this.context, tray));
    }
    const telling = tell(
      this.inbox,
      items.map(({ id }) => id),
      [...this.screen.values()],
      { toast: this.options.toast ?? false, granted: true },
      (entry) => shownVia(entry, entry.phase),
    );
    for (const content of telling.show) this.screen.set(content.tag, content);
    for (const tag of telling.close) this.screen.delete(tag);
    for (const [id, via] of telling.via) {
      const entry = this.inbox.get(id);
      if (entry) this.inbox.set(id, withDelivery(entry, via, now));
    }
    return this.options.toast ? telling.toasts : telling.show;
  }

  /** The user closes a notification. */
  close(tag: string): void {
    this.screen.delete(tag);
  }
}
