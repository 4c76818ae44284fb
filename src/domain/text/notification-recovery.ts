import { alertId, isFollowUp, type ShownAs } from '../alerts/alert-plan.ts';
import type { DeliveryVia, InboxEntry } from '../alerts/inbox.ts';
import { otherParties, pairTag } from '../alerts/transfer-pair.ts';
import {
  isNotificationData,
  itemTag,
  OVERALL_TAG,
  plainTitle,
  retelling,
  summaryText,
  type NotificationContent,
  type OnScreen,
  type SummaryLine,
} from './notification-content.ts';
import { subjectOfBody } from './alert-text.ts';

// Recovery after a tab closed: which stored alerts the system already shows, and the notifications for those it
// never showed, by the planner's rules (notification-content.ts makes the notifications themselves).

/**
 * Which of the alerts stored but not recorded as shown the system still shows (the tab closed just after showing
 * them), and how. A single tells the state its title says (a pair's, each side's own title in it); a summary stands
 * for every state of its transactions but a revert or a drop, which is always told on its own.
 */
export function shownOnScreen(waiting: readonly InboxEntry[], screen: readonly OnScreen[]): Map<string, DeliveryVia> {
  const byId = new Map(waiting.map((entry) => [entry.id, entry]));
  const shown = new Map<string, DeliveryVia>();
  for (const { title, data } of screen) {
    if (!isNotificationData(data)) continue;
    for (const id of data.ids) {
      const entry = byId.get(id);
      // A transfer between two watched addresses shows the pair's words; each side keeps its own beside them.
      const side = data.pair?.sides?.[id];
      const told = typeof side?.title === 'string' ? side.title : title;
      if (
        !entry ||
        (data.summary ? isFollowUp(entry.phase, entry.facts?.afterRevert === true) : entry.title !== plainTitle(told))
      )
        continue;
      shown.set(id, data.summary ? 'summary' : 'notification');
    }
  }
  return shown;
}

/**
 * Alerts stored but never shown, from their stored words, by the planner's rules: a transaction already told on its
 * own replaces its notification, one already told inside a summary is retold there, a quiet one stays in the inbox,
 * a side of a transaction between watched addresses joins its other sides where they were told (their notification,
 * or the overall summary), and the others are shown one by one when few (a side of a pair under the pair's tag, as
 * the tab that closed handed it over, were the system still to show that), else in one summary. A side told in a
 * summary is retold there, never moved beside its other side as the planner may: its words stay true, in two
 * notifications at worst.
 */
export function storedContents(entries: readonly InboxEntry[], shownAs: ShownAs): NotificationContent[] {
  // A pair side in its own words, as noticeContent makes it: the tray shows the pair's (tray.ts).
  const single = ({ id, title, body, path, phase, pair, facts, deliveries }: InboxEntry): NotificationContent => ({
    title,
    body,
    tag: pair ? pairTag(pair.key) : itemTag(id),
    // Back in the mempool after a revert shown last: it changes the revert's words, without a second sound.
    renotify: !(facts?.afterRevert && deliveries.at(-1)?.phase === 'reverted' && deliveries.at(-1)?.via !== 'inbox'),
    ...(pair ? { phases: { [id]: phase } } : {}),
    data: {
      ids: [id],
      path,
      summary: null,
      phase,
      ...(pair ? { pair } : {}),
      // A fee bump's replaced transaction leaves the tray once its replacement is mined (tray.ts), shown again too.
      ...(phase === 'dropped' && facts?.activity?.replacedBy
        ? { replacedBy: `${id.split(':')[0]}:${facts.activity.replacedBy}` }
        : {}),
    },
  });
  // Its address as its words named it: an alert's body starts with it (alert-text.ts's alertBody, a relay's too).
  const lineOf = (entry: InboxEntry): SummaryLine => ({
    id: entry.id,
    phase: entry.phase,
    title: entry.title,
    who: subjectOfBody(entry.body) || entry.principal,
  });
  // As the planner tells them: a side of a pair joins its other side where that was told, on its own or in a summary.
  const otherSide = ({ network, principal, txId, pair }: InboxEntry) => {
    if (!pair || txId === null) return null;
    const shown = otherParties(pair, principal).map((other) => shownAs(alertId(network, other, txId)));
    return shown.includes('single') ? 'single' : shown.includes('summary') ? 'summary' : null;
  };
  const isNew = (entry: InboxEntry) => shownAs(entry.id) === null && !entry.quiet;
  const updates = entries.filter(
    (entry) =>
      isFollowUp(entry.phase, entry.facts?.afterRevert === true) ||
      shownAs(entry.id) === 'single' ||
      (isNew(entry) && otherSide(entry) === 'single'),
  );
  const toSummary = entries.filter(
    (entry) => !updates.includes(entry) && isNew(entry) && otherSide(entry) === 'summary',
  );
  const fresh = entries.filter((entry) => !updates.includes(entry) && !toSummary.includes(entry) && isNew(entry));
  const retold = entries.filter((entry) => !updates.includes(entry) && shownAs(entry.id) === 'summary');
  const retell = retold.length > 0 ? [retelling(retold.map(lineOf))] : [];
  const singles = fresh.length <= 3 ? [...updates, ...fresh] : updates;
  const folded = [...(fresh.length <= 3 ? [] : fresh), ...toSummary];
  if (folded.length === 0) return singles.map(single).concat(retell);
  const subject = 'your addresses';
  const lines = folded.map(lineOf);
  const summary = { subject, away: true, lines };
  return [
    ...singles.map(single),
    {
      ...summaryText(
        folded.map((entry) => entry.id),
        summary,
        true,
      ),
      tag: OVERALL_TAG,
      renotify: true,
      phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
      data: { ids: folded.map((entry) => entry.id), path: '/inbox', summary },
    },
    ...retell,
  ];
}
