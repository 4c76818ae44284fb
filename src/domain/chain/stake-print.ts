import { isPoxContract } from './touched-principals.ts';

/** pox-5's prints that set a staker's lock, and the field holding the STX it locks from then on. */
const LOCKING_TOPICS = new Set(['stake', 'stake-update']);
const TOPIC = /\(topic "([a-z-]+)"\)/;
const AMOUNT = /\(amount-ustx u(\d+)\)/;

/**
 * The micro-STX a PoX-5 `stake` or `stake-update` locks, read from pox-5's print of it (a stake has no `stx_lock`
 * event: its print is what the API reads too); null for any other print, or one a contract other than PoX's made.
 */
export function stakedByPrint(contractId: string, repr: string): bigint | null {
  if (!isPoxContract(contractId)) return null;
  const topic = TOPIC.exec(repr)?.[1];
  if (!topic || !LOCKING_TOPICS.has(topic)) return null;
  const amount = AMOUNT.exec(repr)?.[1];
  return amount === undefined ? null : BigInt(amount);
}
