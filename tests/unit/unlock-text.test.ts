import { describe, expect, it } from 'vitest';
import { unlockText } from '../../src/domain/text/unlock-text.ts';

describe('unlockText', () => {
  it('says when in a person’s words, the exact Bitcoin block beside them', () => {
    expect(unlockText(238, 220)).toBe('unlocks in about 3 hours (Bitcoin block 238)');
    expect(unlockText(238, 237)).toBe('unlocks in about 10 minutes (Bitcoin block 238)');
    expect(unlockText(238, 232)).toBe('unlocks in about 1 hour (Bitcoin block 238)');
    expect(unlockText(871_300, 870_000)).toBe('unlocks in about 9 days (Bitcoin block 871,300)');
  });

  it('gives the block alone when the current height is unknown, and says so once it is reached', () => {
    expect(unlockText(238, null)).toBe('unlocks at Bitcoin block 238');
    expect(unlockText(238, 238)).toBe('unlocking now (Bitcoin block 238 is here)');
    expect(unlockText(238, 240)).toBe('unlocking now (Bitcoin block 238 is here)');
    expect(unlockText(null, 240)).toBe('locked for stacking');
  });
});
