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
});
