import { err, ok, type Result } from '../result.ts';

export const LABEL_MAX_LENGTH = 64;

export type LabelError =
  { readonly kind: 'too-long'; readonly length: number } | { readonly kind: 'control-character' };

/** A label as it is kept: its ends trimmed, each run of white space one space. */
const tidy = (raw: string): string => raw.trim().replace(/\s+/g, ' ');

/**
 * How long a label is as its limit counts it: in characters as a person counts them (code points, so an emoji or any
 * character beyond the basic plane is one, not the two UTF-16 units of `string.length`), once tidied.
 */
export const labelLength = (raw: string): number => [...tidy(raw)].length;

/** Trims a label and checks it; an empty label is allowed (the address speaks for itself). */
export function normaliseLabel(raw: string): Result<string, LabelError> {
  const label = tidy(raw);
  if (/[\p{Cc}\p{Cf}]/u.test(label)) return err({ kind: 'control-character' });
  const length = labelLength(label);
  if (length > LABEL_MAX_LENGTH) return err({ kind: 'too-long', length });
  return ok(label);
}

export function describeLabelError(error: LabelError): string {
  return error.kind === 'too-long'
    ? `The label has ${error.length} characters; keep it to ${LABEL_MAX_LENGTH} or fewer.`
    : 'The label contains an invisible control character; type it again without pasting.';
}
