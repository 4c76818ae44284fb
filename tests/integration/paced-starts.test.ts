import { afterEach, describe, expect, it, vi } from 'vitest';
import { pacedStartsOf } from '../../src/app/engine/paced-starts.ts';

const URL_A = 'http://127.0.0.1:3999';

afterEach(() => {
  localStorage.clear();
  vi.restoreAllMocks();
});

describe('the starts of the last minute, kept for a reload', () => {
  it('are read back by the next page, only those of the last minute, under the node’s URL alone', () => {
    const now = Date.now();
    pacedStartsOf(URL_A).remember([now - 90_000, now - 1_000, now]);
    expect(pacedStartsOf(URL_A).recall()).toEqual([now - 1_000, now]);
    expect(pacedStartsOf('http://127.0.0.1:4000').recall()).toEqual([]);
    expect(Object.keys(localStorage)).toEqual([`stacks-watch:paced:${URL_A}`]);
  });

  it('count as nothing when what is stored is not a list of times', () => {
    localStorage.setItem(`stacks-watch:paced:${URL_A}`, '{"not":"a list"');
    expect(pacedStartsOf(URL_A).recall()).toEqual([]);
    localStorage.setItem(`stacks-watch:paced:${URL_A}`, '[1, "2", null, 3]');
    expect(pacedStartsOf(URL_A).recall()).toEqual([1, 3]);
  });

  it('are counted in memory where the device cannot store them', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    const memory = pacedStartsOf(URL_A);
    const now = Date.now();
    memory.remember([now]);
    expect(memory.recall()).toEqual([now]);
  });

  it('keep what the page going away counted: a request it tears down is not taken back (it reached the node)', () => {
    const memory = pacedStartsOf(URL_A);
    const now = Date.now();
    memory.remember([now - 1_000, now]);
    window.dispatchEvent(new Event('beforeunload'));
    // The reload tears the request of `now` down without an answer: the pacer takes it back, the memory keeps it, and
    // still learns a request started meanwhile.
    memory.remember([now - 1_000]);
    memory.remember([now - 1_000, now + 5]);
    expect(pacedStartsOf(URL_A).recall()).toEqual([now - 1_000, now, now + 5]);
    // Back from the back-forward cache, the page counts as ever.
    window.dispatchEvent(new Event('pageshow'));
    memory.remember([now - 1_000]);
    expect(pacedStartsOf(URL_A).recall()).toEqual([now - 1_000]);
  });
});
