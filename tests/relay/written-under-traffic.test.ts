import { describe, expect, it } from 'vitest';
import { ToldMarks } from '../../src/relay/push/told-marks.ts';
import type { QueuedSend } from '../../src/relay/storage/deliveries.ts';
import type { Database } from '../../src/relay/storage/sql.ts';
import { SqlSnapshots } from '../../src/relay/storage/sql-snapshots.ts';

// Told marks and snapshots gather for a few ms before each write, so under steady traffic their writers are never
// idle. A partition hand-over waits for the marks of the pushes it let go, and the resume anchor for the snapshots
// before it: each must wait for what was handed over before it asked, not for the writer to fall idle (a cold review
// found both would have waited as long as the traffic lasted).

/** A database that records each statement's parameters, and answers a few ms later, as a real one over a socket. */
function recording() {
  const statements: unknown[][] = [];
  const sql = {
    query: async (_text: string, params: readonly unknown[] = []) => {
      statements.push([...params]);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [];
    },
  };
  const db = { ...sql, kind: 'postgres', within: () => db } as unknown as Database;
  return { db, statements };
}

const send = (cursor: number): QueuedSend =>
  ({ deviceId: 'device-a', cursor, tries: 0, urgency: 'normal', notBefore: 0 }) as unknown as QueuedSend;

/** Hands `next()` over every few ms until `done` settles; returns how many it handed over. */
async function steadily(next: (n: number) => void, done: Promise<void>): Promise<number> {
  let n = 0;
  let settled = false;
  void done.then(() => (settled = true));
  while (!settled) {
    next(++n);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return n;
}

describe('a gathering writer under steady traffic', () => {
  it('tells the marks added before a hand-over asked as written, though more keep coming', async () => {
    const { db, statements } = recording();
    const marks = new ToldMarks(
      db,
      () => 1,
      10,
      () => false,
    );
    marks.add(send(1));
    const written = marks.written();
    const more = await steadily((n) => marks.add(send(100 + n)), written);
    expect(more).toBeGreaterThan(0);
    // The first mark is in a statement that was written.
    expect(statements.some(([, cursors]) => (cursors as number[]).includes(1))).toBe(true);
  });

  it('tells the snapshots changed before the anchor asked as stored, though more keep changing', async () => {
    const { db, statements } = recording();
    const book = new SqlSnapshots(db, () => undefined, 'one');
    const change = (principal: string, height: number) =>
      book.update(principal, 'testnet', (snapshot) => ({ ...snapshot, syncedHeight: height }));
    change('SP-first', 1);
    const saved = book.saved();
    const more = await steadily((n) => change(`SP-${n % 7}`, n + 1), saved);
    expect(more).toBeGreaterThan(0);
    expect(statements.some(([, principals]) => (principals as string[]).includes('SP-first'))).toBe(true);
  });
});
