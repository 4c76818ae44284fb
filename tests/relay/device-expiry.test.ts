import { expect, it } from 'vitest';
import { DeviceExpiry } from '../../src/relay/device-expiry.ts';
import type { EngineControl } from '../../src/relay/engine/control.ts';
import { createLog } from '../../src/relay/log.ts';
import type { Database, Sql } from '../../src/relay/storage/sql.ts';

it('runs a sweep asked for during another after it, by the clock of when it was asked', async () => {
  let clock = 1_000;
  /** The clock each sweep's statements were given ("now - 1 h" of the hour's counts), in order. */
  const cutoffs: number[] = [];
  const gates: (() => void)[] = [];
  const sql: Sql = {
    query: async <Row>(text: string, params: readonly unknown[] = []) => {
      if (text.includes('device_additions')) cutoffs.push(Number(params[0]));
      return [] as Row[];
    },
  };
  const db = {
    within: () => db,
    transaction: async <T>(work: (sql: Sql) => Promise<T>) => {
      await new Promise<void>((resolve) => gates.push(resolve));
      return work(sql);
    },
  } as unknown as Database;
  const expiry = new DeviceExpiry({
    db,
    engine: {} as EngineControl,
    maxIdleDays: 30,
    log: createLog({ write: () => undefined }),
    now: () => clock,
  });
  const first = expiry.sweep();
  clock += 3_600_000;
  const asked = expiry.sweep();
  // Not the one under way: that one judges by the clock before.
  expect(asked).not.toBe(first);
  // Asked again while the second waits: the same one.
  expect(expiry.sweep()).toBe(asked);
  gates.shift()!();
  await first;
  await new Promise<void>((resolve) => {
    const waitForGate = () => (gates.length > 0 ? resolve() : setImmediate(waitForGate));
    waitForGate();
  });
  gates.shift()!();
  await asked;
  await expiry.idle();
  expect(cutoffs).toEqual([1_000 - 3_600_000, 1_000]);
});
