import { afterEach, describe, expect, it } from 'vitest';
import { statusBoard } from '../../src/app/connection-status.ts';
import { linesNow } from '../../src/app/node-trouble-lines.ts';
import type { MonitorStatus } from '../../src/monitor/monitor-status.ts';
import { formatter } from '../../src/domain/text/time-text.ts';

// "Mainnet node unreachable since …" across a reload: the page starts with nothing tried (no problem yet, no tip),
// which says nothing of the node, so the time kept from before the reload stands until the node fails again here
// (then it is the line's time) or answers (then it is forgotten). A cold review found the start erasing it.

const KEY = 'stacks-watch:trouble-began:mainnet';
const status = (given: Partial<MonitorStatus>): MonitorStatus => ({
  node: 'https://node.example',
  feed: 'connecting',
  connectedOnce: false,
  lastEventAt: null,
  tip: null,
  syncing: true,
  problem: null,
  ...given,
});
const timeOf = (at: number) =>
  formatter(undefined, { hour: '2-digit', minute: '2-digit' }).format(at).replace(/\s/g, '\u00a0');

afterEach(() => {
  statusBoard.set('mainnet', null);
  localStorage.removeItem(KEY);
});

describe('when a node trouble began, through a reload', () => {
  it('keeps the time from before the reload while the page starts, tells it once the node fails again', () => {
    const now = Date.UTC(2026, 11, 1, 9, 30);
    const began = now - 11 * 60_000;
    localStorage.setItem(KEY, JSON.stringify({ since: began, seen: now - 30_000 }));
    statusBoard.set('mainnet', status({}));
    expect(linesNow(true, now).lines.mainnet).toBeUndefined();
    expect(localStorage.getItem(KEY)).not.toBeNull();
    statusBoard.set('mainnet', status({ problem: 'Can’t reach the node', problemSince: now + 1_000 }));
    expect(linesNow(true, now + 2_000).lines.mainnet).toBe(`Mainnet node unreachable since ${timeOf(began)}`);
  });

  it('forgets it once the node answers this page', () => {
    const now = Date.UTC(2026, 11, 1, 9, 30);
    localStorage.setItem(KEY, JSON.stringify({ since: now - 60_000, seen: now - 1_000 }));
    statusBoard.set('mainnet', status({ feed: 'live', tip: { height: 10, burnHeight: 5 }, syncing: false }));
    expect(linesNow(true, now).lines.mainnet).toBeUndefined();
    expect(localStorage.getItem(KEY)).toBeNull();
  });
});
