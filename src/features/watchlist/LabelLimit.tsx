import { LABEL_MAX_LENGTH } from '../../domain/address/label.ts';

/** Shown from this many characters on: a label well short of the limit needs no count. */
const SHOWN_FROM = LABEL_MAX_LENGTH - 16;

/**
 * How much of a label's room is used, once it nears the limit: the field takes no more than LABEL_MAX_LENGTH
 * characters, and a user typing past it must see why the rest did not appear (a new user's walk: a 71-character label
 * was cut to 64 without a word).
 */
export function LabelLimit({ id, length }: { id: string; length: number }) {
  if (length < SHOWN_FROM) return null;
  return (
    <p id={id} className="note label-limit" aria-live="polite">
      {length >= LABEL_MAX_LENGTH
        ? `${LABEL_MAX_LENGTH} characters at most: the label is full.`
        : `${length} of ${LABEL_MAX_LENGTH} characters`}
    </p>
  );
}
