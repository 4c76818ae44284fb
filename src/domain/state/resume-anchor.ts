import { isRecord } from '../is-record.ts';

/**
 * A block every watched principal of a network was complete up to when the last full reconcile ended: a resume
 * asks the node what was mined after it instead of reading every principal. The hash tells whether the chain at
 * that height is still the one remembered.
 */
export interface ResumeAnchor {
  readonly height: number;
  readonly indexHash: string;
}

const HASH = /^0x[0-9a-f]{64}$/;

export const isResumeAnchor = (value: unknown): value is ResumeAnchor =>
  isRecord(value) &&
  Number.isSafeInteger(value['height']) &&
  (value['height'] as number) >= 0 &&
  typeof value['indexHash'] === 'string' &&
  HASH.test(value['indexHash']);
