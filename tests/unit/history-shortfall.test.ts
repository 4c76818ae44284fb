import { describe, expect, it } from 'vitest';
import { shortfallWords } from '../../src/domain/text/history-shortfall.ts';

const OFFLINE = 'This device is offline';
const JAN_2 = Date.UTC(2026, 0, 2) / 1000;

describe('what the full history lacks while the node cannot be read', () => {
  it('never counts more transactions than their total: a total the list has outgrown is left unsaid', () => {
    const words = shortfallWords({ listed: 89, nodeTotal: 55, complete: false, oldest: JAN_2, problem: OFFLINE });
    expect(words).toBe(
      'Showing what is on this device: 89 transactions, none before 2026-01-02. Older ones are missing: This device is offline.',
    );
  });

  it('keeps the node’s total while it is the larger, and says nothing of a total the node never gave', () => {
    expect(shortfallWords({ listed: 12, nodeTotal: 40, complete: false, oldest: JAN_2, problem: OFFLINE })).toMatch(
      /^Showing what is on this device: 12 transactions of about 40, none before 2026-01-02\. Older ones are missing/,
    );
    expect(shortfallWords({ listed: 1, nodeTotal: null, complete: false, oldest: undefined, problem: OFFLINE })).toBe(
      'Showing what is on this device: 1 transaction. Older ones are missing: This device is offline.',
    );
  });

  it('read down to the first, says no older one is missing: only newer ones could not be checked', () => {
    const words = shortfallWords({ listed: 89, nodeTotal: 55, complete: true, oldest: JAN_2, problem: OFFLINE });
    expect(words).toBe(
      'Showing what is on this device: all 89 transactions, down to the first. Newer ones could not be checked: This device is offline.',
    );
    expect(words).not.toMatch(/Older ones are missing|of about/);
  });
});
