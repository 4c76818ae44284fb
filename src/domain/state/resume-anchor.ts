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
  typeof value === 'object' &&
  value !== null &&
  Number.isSafeInteger((value as ResumeAnchor).height) &&
  (value as ResumeAnchor).height >= 0 &&
  typeof (value as ResumeAnchor).indexHash === 'string' &&
  HASH.test((value as ResumeAnchor).indexHash);
