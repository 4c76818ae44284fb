import { err, ok, type Result } from '../result.ts';

export const LABEL_MAX_LENGTH = 64;

export type LabelError =
  { readonly kind: 'too-long'; readonly length: number } | { readonly kind: 'control-character' };

/** Trims a label and checks it; an empty label is allowed (the address speaks for itself). */
export function normaliseLabel(raw: string): Result<string, LabelError> {
  const label = raw.trim().replace(/\s+/g, ' ');
  if (/[\p{Cc}\p{Cf}]/u.test(label)) return err({ kind: 'control-character' });
  const length = [...label].length;
  if (length > LABEL_MAX_LENGTH) return err({ kind: 'too-long', length });
  return ok(label);
}

export function describeLabelError(error: LabelError): string {
  return error.kind === 'too-long'
    ? `The label has ${error.length} characters; keep it to ${LABEL_MAX_LENGTH} or fewer.`
    : 'The label contains an invisible control character; type it again without pasting.';
}
