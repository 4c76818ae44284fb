import { describe, expect, it } from 'vitest';
import { createLog } from '../../src/relay/log.ts';

describe('the structured log', () => {
  it('writes one JSON line per kind of event, and its repeats within the window as one line with their count', () => {
    let clock = Date.parse('2026-11-24T10:00:00Z');
    const lines: string[] = [];
    const log = createLog({ write: (line) => lines.push(line), now: () => clock, windowMs: 60_000 });
    // A database outage: the same failure by the thousand, numbers aside.
    for (let i = 0; i < 1612; i++) {
      log.warn('problem', { message: `3 of ${50 + (i % 3)} addresses could not be synced` });
      clock += 10;
    }
    log.info('device forgotten', { device: 'abc', answer: '410' });
    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      {
        at: '2026-11-24T10:00:00.000Z',
        level: 'warn',
        event: 'problem',
        message: '3 of 50 addresses could not be synced',
      },
      { at: expect.any(String), level: 'info', event: 'device forgotten', device: 'abc', answer: '410' },
    ]);
    // The window ends: the repeats are told with their count, and a new one starts afresh.
    clock += 60_000;
    log.warn('problem', { message: '3 of 50 addresses could not be synced' });
    log.flush();
    const told = lines.slice(2).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(told).toEqual([
      expect.objectContaining({ level: 'warn', event: 'problem', repeats: 1611 }),
      expect.objectContaining({ level: 'warn', event: 'problem', message: '3 of 50 addresses could not be synced' }),
    ]);
    expect(told[1]).not.toHaveProperty('repeats');
    expect(lines).toHaveLength(4);
  });

  it("tells the repeats with the last one's fields and the span they cover, not the first one's", () => {
    let clock = Date.parse('2026-11-24T10:00:00Z');
    const lines: string[] = [];
    const log = createLog({ write: (line) => lines.push(line), now: () => clock, windowMs: 60_000 });
    // A node falling further behind: one kind of line, its figures changing.
    for (let behind = 1; behind <= 5; behind++) {
      log.warn('node behind', { network: 'testnet', message: `${behind} blocks behind the tip`, height: 100 + behind });
      clock += 1_000;
    }
    clock += 58_000;
    log.flush();
    const [first, summary, ...rest] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rest).toEqual([]);
    expect(first).toEqual({
      at: '2026-11-24T10:00:00.000Z',
      level: 'warn',
      event: 'node behind',
      network: 'testnet',
      message: '1 blocks behind the tip',
      height: 101,
    });
    expect(summary).toEqual({
      at: '2026-11-24T10:01:03.000Z',
      level: 'warn',
      event: 'node behind',
      network: 'testnet',
      message: '5 blocks behind the tip',
      height: 105,
      repeats: 4,
      firstAt: '2026-11-24T10:00:00.000Z',
      lastAt: '2026-11-24T10:00:04.000Z',
    });
  });
});
