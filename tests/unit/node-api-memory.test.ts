import 'fake-indexeddb/auto';
import { createStore, get, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { NodeApiMemory } from '../../src/store/node-api-memory.ts';

let counter = 0;
const freshDb = () => createStore(`node-api-memory-test-${(counter += 1)}`, 'records');
const HASH = `0x${'ab'.repeat(32)}`;

describe('what the app remembers of each node across starts', () => {
  it('keeps each node’s resume anchor, apart from the others', async () => {
    const db = freshDb();
    const memory = new NodeApiMemory(db);
    await memory.load();
    expect(memory.anchorsOf('http://127.0.0.1:3999').get()).toBeNull();
    memory.anchorsOf('http://127.0.0.1:3999').set({ height: 42, indexHash: HASH });
    await expect.poll(() => get('node-resume-anchors', db)).toBeTruthy();
    const again = new NodeApiMemory(db);
    await again.load();
    expect(again.anchorsOf('http://127.0.0.1:3999').get()).toEqual({ height: 42, indexHash: HASH });
    expect(again.anchorsOf('http://127.0.0.1:4000').get()).toBeNull();
  });

  it('drops a damaged anchor record (the resume then reads every address once) and keeps the sound ones', async () => {
    const db = freshDb();
    await set(
      'node-resume-anchors',
      {
        a: { height: 7, indexHash: HASH },
        b: { height: -1, indexHash: HASH },
        c: { height: 3, indexHash: '<script>' },
        d: 'nonsense',
      },
      db,
    );
    const memory = new NodeApiMemory(db);
    await memory.load();
    expect(['a', 'b', 'c', 'd'].map((url) => memory.anchorsOf(url).get())).toEqual([
      { height: 7, indexHash: HASH },
      null,
      null,
      null,
    ]);
  });
});
