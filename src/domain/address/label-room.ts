import { LABEL_MAX_LENGTH, labelLength } from './label.ts';

/** Shown from this many characters on: a label well short of the limit needs no count. */
const SHOWN_FROM = LABEL_MAX_LENGTH - 16;

/** The label field's count near the limit, counted as the limit is (labelLength); null while far from it. */
export function labelRoomText(raw: string): string | null {
  const length = labelLength(raw);
  if (length < SHOWN_FROM) return null;
  return length >= LABEL_MAX_LENGTH
    ? `${LABEL_MAX_LENGTH} characters at most: the label is full.`
    : `${length} of ${LABEL_MAX_LENGTH} characters`;
}

/**
 * What a label field keeps of an edit from `before` to `after`, as a `maxlength` field would but counting as the limit
 * does (an input's `maxlength` counts UTF-16 units: it stops at 32 emoji): the edit whole when it fits; else the text
 * inserted cut to what fits between what was before and after it. `caret`: where the cursor goes when the edit was cut,
 * in UTF-16 units (after what was kept of the insertion); null when the edit is kept as it is.
 */
export function fitLabelEdit(before: string, after: string): { text: string; caret: number | null } {
  if (labelLength(after) <= LABEL_MAX_LENGTH) return { text: after, caret: null };
  const old = [...before];
  const edited = [...after];
  let head = 0;
  while (head < old.length && head < edited.length && old[head] === edited[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < edited.length - head &&
    old[old.length - 1 - tail] === edited[edited.length - 1 - tail]
  )
    tail++;
  const start = edited.slice(0, head).join('');
  const end = edited.slice(edited.length - tail).join('');
  const inserted = edited.slice(head, edited.length - tail);
  // Nothing added (a deletion, of a label that was over the limit before): kept, the cursor where the browser put it.
  if (inserted.length === 0) return { text: after, caret: null };
  // Inserting more never shortens a label: the longest start of the insertion that fits is found by halving.
  const fits = (count: number) => labelLength(start + inserted.slice(0, count).join('') + end) <= LABEL_MAX_LENGTH;
  let low = 0;
  let high = inserted.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  const kept = start + inserted.slice(0, low).join('');
  return { text: kept + end, caret: kept.length };
}
