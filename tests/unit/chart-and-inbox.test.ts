import { describe, expect, it } from 'vitest';
import { axisLabels, nearestPoint, niceTicks, pointsInPeriod, STX_STEP } from '../../src/domain/chart/chart-scale.ts';
import { withDelivery, type InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { badgeText } from '../../src/domain/alerts/badge.ts';
import { filterInbox, groupByAddress, ALL_ALERTS } from '../../src/domain/alerts/inbox-view.ts';
import { groupByDay } from '../../src/domain/text/day-groups.ts';
import { addToBurst, viewBurst } from '../../src/domain/alerts/toast-view.ts';
import type { NotificationContent } from '../../src/domain/text/notification-content.ts';

/** The number a reader takes from an axis label ("1.25M", "350K", "53,799,999.5"): an oracle apart from Intl. */
function readLabel(label: string): number {
  const unit = { K: 1e3, M: 1e6, B: 1e9, T: 1e12 }[label.at(-1)!] ?? 1;
  return Number(label.replace(/[KMBT]$/, '').replaceAll(',', '')) * unit;
}

describe('chart scales', () => {
  it('picks round ticks that cover the range', () => {
    expect(niceTicks(0, 100)).toEqual([0, 50, 100]);
    expect(niceTicks(12.3, 87.1)).toEqual([0, 50, 100]);
    expect(niceTicks(12.3, 57.1)).toEqual([0, 20, 40, 60]);
    expect(niceTicks(5, 5)).toEqual([4.5, 5, 5.5]);
    expect(axisLabels([0, 1_250_000, 2_500_000])).toEqual(['0', '1.25M', '2.5M']);
  });

  it('labels every tick differently, however small the move on however large a balance', () => {
    expect(axisLabels([0, 50, 100])).toEqual(['0', '50', '100']);
    expect(axisLabels([53_799_999.5, 53_800_000, 53_800_000.5])).toEqual([
      '53,799,999.5',
      '53,800,000.0',
      '53,800,000.5',
    ]);
    expect(axisLabels([1_000_000, 1_200_000, 1_400_000])).toEqual(['1M', '1.2M', '1.4M']);
    expect(axisLabels([0.000001, 0.000002])).toEqual(['0.000001', '0.000002']);
    expect(niceTicks(110_866, 110_866.000001, 4, STX_STEP)).toEqual([110_866, 110_866.000001]);
    // Round balances with small moves, and balances past a billion STX.
    expect(axisLabels([53_800_000, 53_800_000.02, 53_800_000.04])).toEqual([
      '53,800,000.00',
      '53,800,000.02',
      '53,800,000.04',
    ]);
    expect(axisLabels([1_500, 1_500.000002, 1_500.000004])).toEqual(['1,500.000000', '1,500.000002', '1,500.000004']);
    const billions = niceTicks(1_400_000_000, 1_400_000_000.000003, 4, STX_STEP);
    expect(billions.length).toBeGreaterThanOrEqual(3);
    expect(new Set(axisLabels(billions)).size).toBe(billions.length);
    // Generated balances and moves, from one micro-STX to billions: labels all differ and each reads as its tick.
    for (let seed = 1; seed <= 2_000; seed++) {
      // Ragged and round bases, up to the total supply; moves from one micro-STX to billions.
      const round = 10 ** (seed % 10);
      const base =
        seed % 3 === 0 ? round * (seed % 97) : ((seed * 7_919) % 1_800_000_000) + (seed % 7) / 10 ** (seed % 7);
      const span = (1 + (seed % 5)) * 10 ** ((seed % 16) - 6);
      const ticks = niceTicks(base, base + span, 4, STX_STEP);
      const labels = axisLabels(ticks);
      const context = `seed ${seed}: ${labels.join(' | ')}`;
      expect(new Set(labels).size, context).toBe(ticks.length);
      // Within half a micro-STX (and the oracle's own float rounding on billions).
      labels.forEach((label, i) =>
        expect(Math.abs(readLabel(label) - ticks[i]!), context).toBeLessThanOrEqual(
          Math.max(5e-7, Math.abs(ticks[i]!) * 1e-15),
        ),
      );
    }
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

  it('keeps each day one list in time order by default, the addresses taking turns as their alerts came', () => {
    const days = groupByDay(entries, (entry) => entry.at, NOW, { timeZone: 'UTC' });
    expect(days.map((day) => [day.label, day.items.map((entry) => `${entry.principal} ${entry.id}`)])).toEqual([
      ['Today', ['ST1 a', 'ST2 b', 'ST1 c']],
      ['Yesterday', ['ST1 d']],
    ]);
  });

  it('groups by day, then by address in the order of its newest alert, when asked', () => {
    const days = groupByAddress(entries, NOW, { timeZone: 'UTC' });
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

  it('shows one alert in its own words, and the newest of several with the others as "+N more"', () => {
    let burst = addToBurst(null, content('t1', 'Received 84 STX — pending', '/address/ST1#tx-1'));
    expect(viewBurst(burst)).toMatchObject({ title: 'Received 84 STX — pending', more: 0 });
    burst = addToBurst(burst, content('t1', 'Received 84 STX', '/address/ST1#tx-1'));
    expect(viewBurst(burst)).toMatchObject({ title: 'Received 84 STX', path: '/address/ST1#tx-1' });
    burst = addToBurst(burst, content('t2', 'Sent 2 STX', '/address/ST1#tx-2'));
    expect(viewBurst(burst)).toEqual({
      title: 'Sent 2 STX',
      body: 'body',
      path: '/address/ST1#tx-2',
      more: 1,
      morePath: '/address/ST1',
    });
    burst = addToBurst(burst, content('s3', '5 new transactions on Bob', '/address/ST2', ['x', 'y', 'z', 'v', 'w']));
    // The summary tells five of the seven alerts itself: two more.
    expect(viewBurst(burst)).toMatchObject({ title: '5 new transactions on Bob', more: 2, morePath: '/inbox' });
  });
});
