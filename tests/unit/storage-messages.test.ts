import { describe, expect, it } from 'vitest';
import { serialiseDamagedRecords } from '../../src/domain/watch/damaged-file.ts';
import {
  describeCleared,
  describeDamagedRecords,
  describeWatchlistDamage,
} from '../../src/domain/text/storage-messages.ts';

describe('what the user is told about storage faults', () => {
  it('a damaged watch list: what is wrong, what is shown, that it is kept, what to do', () => {
    const partial = describeWatchlistDamage({ reason: null, dropped: ['a', 'b', 'c'] }, 1);
    expect(partial).toMatch(/^3 entries of your stored watch list could not be read: a; b; …\. The 1 address that/);
    expect(partial).toContain('is kept on this device as it was, and nothing is saved over it until you choose');
    expect(partial).toContain('download it to keep a copy, then save the list below');
    expect(describeWatchlistDamage({ reason: 'it is not a record', dropped: [] }, 0)).toMatch(
      /^Your stored watch list is damaged \(it is not a record\) and none of it could be read\. /,
    );
    expect(describeWatchlistDamage({ reason: null, dropped: ['x'] }, 2)).toMatch(
      /^1 entry of .* The 2 addresses that could be read are shown below\./,
    );
  });

  it('other damaged records: one sentence each, three at most, and the way to keep a copy', () => {
    const record = (n: number) => ({ record: `record ${n}`, reason: `reason ${n}`, instead: `instead ${n}` });
    expect(describeDamagedRecords([record(1)])).toBe(
      'Some data stored on this device could not be read. Record 1: reason 1; instead 1. Download the damaged data to keep a copy.',
    );
    expect(describeDamagedRecords([1, 2, 3, 4, 5].map(record))).toContain(
      'Record 3: reason 3; instead 3. And 2 other records.',
    );
  });

  it('site data cleared: says what was saved again, and how to really remove everything', () => {
    expect(describeCleared(1)).toContain('your watch list (1 address), settings and alerts');
    expect(describeCleared(null)).toContain('saved again what it still showed: your settings.');
    expect(describeCleared(3)).toContain('close every Stacks Watch tab before clearing site data');
  });
});

describe('the file of damaged records', () => {
  it('keeps each record as stored, spelling out what JSON cannot say', () => {
    const text = serialiseDamagedRecords(
      [
        {
          record: 'the last known state of SP…',
          place: 'stacks-watch:snapshots/SP',
          reason: 'its tokens do not read',
          value: {
            total: 12345678901234567890n,
            tokens: new Map([['a::b', 1n]]),
            tags: new Set(['x']),
            gone: undefined,
          },
        },
      ],
      Date.UTC(2025, 0, 2),
    );
    expect(JSON.parse(text)).toEqual({
      format: 'stacks-watch/damaged-records',
      savedAt: '2025-01-02T00:00:00.000Z',
      records: [
        {
          record: 'the last known state of SP…',
          place: 'stacks-watch:snapshots/SP',
          reason: 'its tokens do not read',
          value: { total: '12345678901234567890n', tokens: [['a::b', '1n']], tags: ['x'], gone: null },
        },
      ],
    });
  });
});
