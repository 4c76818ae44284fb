import { describe, expect, it } from 'vitest';
import { axisLabel, nearestPoint, niceTicks, pointsInPeriod } from '../../src/domain/chart-scale.ts';
import { withDelivery, type InboxEntry } from '../../src/domain/inbox.ts';
import { badgeText } from '../../src/domain/badge.ts';
import { filterInbox, groupInbox, ALL_ALERTS } from '../../src/domain/inbox-view.ts';
import { addToBurst } from '../../src/domain/toast-burst.ts';
import { viewBurst } from '../../src/domain/toast-view.ts';
import type { NotificationContent } from '../../src/domain/alert-text.ts';

describe('chart scales', () => {
  it('picks round ticks that cover the range', () => {
    expect(niceTicks(0, 100)).toEqual([0, 50, 100]);
    expect(niceTicks(12.3, 87.1)).toEqual([0, 50, 100]);
    expect(niceTicks(12.3, 57.1)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(5, 5)).toEqual([4.5, 5, 5.5]);
    expect(axisLabel(1_250_000)).toBe('1.25M');
  });

  it('starts a period with the balance held when it began', () => {
    const day = 86_400;
    const points = [
      { time: 0, balance: 1n },
      { time: 20 * day, balance: 5n },
      { time: 40 * day, balance: 7n },
    ];
    expect(pointsInPeriod(points, '7d', 44 * day)).toEqual([
      { time: 37 * day, balance: 5n },
      { time: 40 * day, balance: 7n },
    ]);
    expect(pointsInPeriod(points, 'all', 44 * day)).toHaveLength(3);
    expect(nearestPoint(points, 25 * day)).toBe(1);
  });
});

const NOW = Date.parse('2026-11-23T12:00:00Z');
const alert = (id: string, principal: string, at: number, read = false): InboxEntry => ({
  id,
  network: 'testnet',
  principal,
  txId: id,
  phase: 'confirmed',
  title: `Alert ${id}`,
  body: '',
  path: `/address/${principal}#tx-${id}`,
  firstAt: at,
  at,
  read,
  deliveries: [],
  undelivered: false,
});

describe('the inbox view', () => {
  const entries = [
    alert('a', 'ST1', NOW - 1000),
    alert('b', 'ST2', NOW - 2000, true),
    alert('c', 'ST1', NOW - 3000),
    alert('d', 'ST1', NOW - 86_400_000),
  ];

  it('groups by day, then by address in the order of its newest alert', () => {
    const days = groupInbox(entries, NOW, { timeZone: 'UTC' });
    expect(days.map((day) => day.label)).toEqual(['Today', 'Yesterday']);
    expect(days[0]!.addresses.map((run) => [run.principal, run.entries.length, run.unread])).toEqual([
      ['ST1', 2, 2],
      ['ST2', 1, 0],
    ]);
  });

  it('filters unread and by address, and caps the badge', () => {
    expect(filterInbox(entries, { ...ALL_ALERTS, unreadOnly: true }).map((e) => e.id)).toEqual(['a', 'c', 'd']);
    expect(filterInbox(entries, { ...ALL_ALERTS, principal: 'ST2' }).map((e) => e.id)).toEqual(['b']);
    expect([badgeText(7), badgeText(99), badgeText(100)]).toEqual(['7', '99', '99+']);
  });

  it('records the state that was shown: a later state stored meanwhile still waits to be shown', () => {
    const confirmed = { ...alert('e', 'ST1', NOW), phase: 'confirmed' as const, undelivered: true };
    const pendingShown = withDelivery(confirmed, 'notification', NOW, 'pending');
    expect(pendingShown.undelivered).toBe(true);
    expect(pendingShown.deliveries).toEqual([{ phase: 'pending', via: 'notification', at: NOW }]);
    const bothShown = withDelivery(pendingShown, 'notification', NOW + 1);
    expect(bothShown.undelivered).toBe(false);
    expect(bothShown.deliveries.map((delivery) => delivery.phase)).toEqual(['pending', 'confirmed']);
  });
});

describe('a burst of toasts', () => {
  const content = (tag: string, title: string, path: string, ids = [tag]): NotificationContent => ({
    title,
    body: 'body',
    tag,
    renotify: false,
    data: { ids, path, summary: null },
  });

  it('shows one alert in its own words and folds the next ones into a count', () => {
    let burst = addToBurst(null, content('t1', 'Received 84 STX — pending', '/address/ST1#tx-1'));
    expect(viewBurst(burst)).toMatchObject({ title: 'Received 84 STX — pending', merged: false });
    burst = addToBurst(burst, content('t1', 'Received 84 STX', '/address/ST1#tx-1'));
    expect(viewBurst(burst)).toMatchObject({ title: 'Received 84 STX', path: '/address/ST1#tx-1' });
    burst = addToBurst(burst, content('t2', 'Sent 2 STX', '/address/ST1#tx-2'));
    expect(viewBurst(burst)).toEqual({ title: '2 new alerts', body: '', path: '/address/ST1', merged: true });
    burst = addToBurst(burst, content('s3', '5 new transactions on Bob', '/address/ST2', ['x', 'y', 'z', 'v', 'w']));
    expect(viewBurst(burst)).toMatchObject({ title: '7 new alerts', path: '/inbox' });
  });
});
