import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LABEL_MAX_LENGTH, labelLength, normaliseLabel } from '../../src/domain/address/label.ts';
import { fitLabelEdit, labelRoomText } from '../../src/domain/address/label-room.ts';

const WHALE = '🐋'; // U+1F40B: one character, two UTF-16 units
const DOUBLE_STRUCK_A = '𝔸'; // U+1D538, a letter beyond the basic plane

describe('a label’s length, as its limit and its field’s count both count it', () => {
  it('counts an emoji or any character beyond the basic plane as one, once the label is tidied', () => {
    expect(labelLength(WHALE.repeat(50))).toBe(50);
    expect(WHALE.repeat(50)).toHaveLength(100);
    expect(labelLength(`Cold ${WHALE} wallet ${DOUBLE_STRUCK_A}`)).toBe(15);
    expect(labelLength('  Cold \n\n wallet  ')).toBe(11);
  });

  it('shows the count the limit applies: 60 emoji are 60 of 64, 64 are full, and 65 are refused as 65', () => {
    expect(labelRoomText(WHALE.repeat(47))).toBeNull();
    expect(labelRoomText(WHALE.repeat(48))).toBe('48 of 64 characters');
    expect(labelRoomText(`${WHALE.repeat(30)}${DOUBLE_STRUCK_A.repeat(30)}`)).toBe('60 of 64 characters');
    expect(labelRoomText(WHALE.repeat(64))).toBe('64 characters at most: the label is full.');
    expect(normaliseLabel(WHALE.repeat(64)).ok).toBe(true);
    expect(normaliseLabel(WHALE.repeat(65))).toEqual({ ok: false, error: { kind: 'too-long', length: 65 } });
  });

  it('agrees with the validator on every label: the count says full exactly where the validator stops', () => {
    // '❤️' is two code points (the heart and its emoji-style selector): two characters to both.
    const characters = fc.constantFrom('a', ' ', '\t', WHALE, DOUBLE_STRUCK_A, 'é', '❤️');
    fc.assert(
      fc.property(fc.array(characters, { maxLength: 90 }), (parts) => {
        const raw = parts.join('');
        const valid = normaliseLabel(raw);
        expect(valid.ok).toBe(labelLength(raw) <= LABEL_MAX_LENGTH);
        if (!valid.ok) expect(valid.error).toEqual({ kind: 'too-long', length: labelLength(raw) });
        expect(labelRoomText(raw)?.endsWith('full.') ?? false).toBe(labelLength(raw) >= LABEL_MAX_LENGTH);
      }),
    );
  });
});

describe('what the label field keeps of an edit', () => {
  it('takes emoji up to the limit the validator applies, not the 32 a maxlength of 64 UTF-16 units would', () => {
    expect(fitLabelEdit(WHALE.repeat(63), WHALE.repeat(64))).toEqual({ text: WHALE.repeat(64), caret: null });
    // Full: one more is refused, the cursor left where it was typed.
    expect(fitLabelEdit(WHALE.repeat(64), WHALE.repeat(65))).toEqual({ text: WHALE.repeat(64), caret: 128 });
  });

  it('cuts a paste to what fits, keeping the text after the cursor, and counts spaces as the label keeps them', () => {
    const pasted = DOUBLE_STRUCK_A.repeat(70);
    expect(fitLabelEdit('', pasted)).toEqual({ text: DOUBLE_STRUCK_A.repeat(64), caret: 128 });
    const before = `${'a'.repeat(30)}${WHALE.repeat(30)}`;
    const after = `${'a'.repeat(30)}${'b'.repeat(10)}${WHALE.repeat(30)}`;
    expect(fitLabelEdit(before, after)).toEqual({
      text: `${'a'.repeat(30)}${'b'.repeat(4)}${WHALE.repeat(30)}`,
      caret: 34,
    });
    // A run of spaces is one character of the label: typed between words at 63, it still fits.
    const spaced = `${'a'.repeat(31)} ${'b'.repeat(31)}`;
    expect(fitLabelEdit(spaced, spaced.replace(' ', '   '))).toEqual({ text: spaced.replace(' ', '   '), caret: null });
  });

  it('never refuses a deletion, even of a label still over the limit', () => {
    const over = 'x'.repeat(70);
    expect(fitLabelEdit(over, over.slice(1))).toEqual({ text: over.slice(1), caret: null });
  });
});
