/**
 * What a contract call that failed was trying to do, as the node tells it: the value its call returned (`(err u1)`),
 * the arguments it was called with, and the post-conditions its sender signed (what it allowed to move). Read from
 * the node's v1 transaction; nothing here is guessed from the contract's name.
 */
export interface CallAttempt {
  /** The call's result as Clarity prints it, or null where the node gave none. */
  readonly result: string | null;
  readonly args: readonly CallArgument[];
  readonly postConditions: readonly PostConditionSpec[];
}

export interface CallArgument {
  readonly name: string;
  /** As Clarity prints it (`u5000000`, `'ST1…`), cut to ARG_REPR_LIMIT characters. */
  readonly repr: string;
}

/** How much of an argument's printed value is kept: enough for numbers and principals, not for a whole buffer. */
export const ARG_REPR_LIMIT = 80;

/** The API's condition codes: amounts are compared, NFTs sent or not. */
export type ConditionCode =
  | 'sent_equal_to'
  | 'sent_greater_than'
  | 'sent_greater_than_or_equal_to'
  | 'sent_less_than'
  | 'sent_less_than_or_equal_to'
  | 'sent'
  | 'not_sent'
  | 'maybe_sent';

export interface PostConditionSpec {
  /** Whose assets it limits; null for the transaction's origin (its sender). */
  readonly principal: string | null;
  readonly code: ConditionCode;
  readonly type: 'stx' | 'ft' | 'nft';
  /** `STX`, or the asset's identifier (`contract::name`). */
  readonly assetIdentifier: string;
  /** Base units; null for an NFT. */
  readonly amount: bigint | null;
  /** The NFT's id as Clarity prints it. */
  readonly nftId?: string;
}
