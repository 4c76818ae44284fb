import { describe, expect, it } from 'vitest';
import { SAME_TROUBLE_MS, troubleBegan } from '../../src/app/trouble-began.ts';

/** localStorage as the page has it: strings by key. */
const storage = () => {
  const kept = new Map<string, string>();
  return {
    getItem: (key: string) => kept.get(key) ?? null,
    setItem: (key: string, value: string) => void kept.set(key, value),
    removeItem: (key: string) => void kept.delete(key),
    kept,
  };
};

// "Mainnet node unreachable since …": a new user's walk saw the time move to each reload's, while the node had not
// answered for eleven minutes. The trouble is dated from when it began, across reloads, while it goes on.
describe('when a node trouble began', () => {
  const T0 = 1_800_000_000_000;

  it('is when it began before a reload, while the trouble goes on', () => {
    const local = storage();
    expect(troubleBegan(local, 'mainnet', T0, T0)).toBe(T0);
    expect(troubleBegan(local, 'mainnet', T0, T0 + 60_000)).toBe(T0);
    // Reloaded: this page first failed to reach the node two minutes later.
    expect(troubleBegan(local, 'mainnet', T0 + 120_000, T0 + 121_000)).toBe(T0);
    // Another network's trouble is its own.
    expect(troubleBegan(local, 'testnet', T0 + 120_000, T0 + 121_000)).toBe(T0 + 120_000);
  });

  it('starts again once the node answered, or after the app was away long enough for it to have', () => {
    const local = storage();
    troubleBegan(local, 'mainnet', T0, T0);
    expect(troubleBegan(local, 'mainnet', null, T0 + 10_000)).toBeNull();
    expect(troubleBegan(local, 'mainnet', T0 + 20_000, T0 + 20_000)).toBe(T0 + 20_000);
    // Closed for longer than SAME_TROUBLE_MS: the node may have answered meanwhile.
    const later = T0 + 20_000 + SAME_TROUBLE_MS + 1;
    expect(troubleBegan(local, 'mainnet', later, later)).toBe(later);
  });

  it("falls back on the page's own time when storage refuses or holds something else", () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    expect(troubleBegan(refusing, 'mainnet', T0, T0)).toBe(T0);
    const local = storage();
    local.setItem('stacks-watch:trouble-began:mainnet', '{"since":"yesterday"}');
    expect(troubleBegan(local, 'mainnet', T0, T0)).toBe(T0);
    local.setItem('stacks-watch:trouble-began:mainnet', 'not json');
    expect(troubleBegan(local, 'mainnet', T0, T0)).toBe(T0);
  });
});
