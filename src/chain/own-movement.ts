import type { Activity, Movement } from '../domain/state/snapshot.ts';
import { feePaid } from '../domain/state/tx-effect.ts';
import type { Field } from './decode.ts';
import { list, object, optional, principal as principalOf, quantity } from './payload.ts';

/** What the movements give the principal in STX: received minus sent, the fee apart. */
const stxGain = (movements: readonly Movement[], principal: string): bigint =>
  movements.reduce(
    (sum, move) =>
      move.type !== 'stx' || move.sender === move.recipient
        ? sum
        : sum + (move.recipient === principal ? move.amount : 0n) - (move.sender === principal ? move.amount : 0n),
    0n,
  );

/**
 * A v1 row's `stx_transfers`: each STX movement touching the principal. An empty sender is the chain itself (the
 * genesis allocation): the node counts it as received, so it reads as a transfer with no sender, not a mint.
 */
export function rowTransfers(field: Field): Movement[] | null {
  return (
    optional(field, list)?.map((item) => {
      const transfer = object(item.value, item.path);
      const party = (key: string) => {
        const at = transfer.at(key);
        return at.value === '' ? null : optional(at, principalOf);
      };
      return {
        type: 'stx',
        assetIdentifier: 'STX',
        kind: 'transfer',
        sender: party('sender'),
        recipient: party('recipient'),
        amount: quantity(transfer.at('amount')),
      };
    }) ?? null
  );
}

/**
 * The row's own figures (`stx_sent`/`stx_received`, v3 `balance_changes`) are the node's word on what a transaction
 * did to the principal; a token transfer's payload only says what its transfer clause moved. They part for the
 * genesis transaction, a 0 STX transfer from the boot address to itself whose events credit every genesis account:
 * read from the payload it would say "Sent 0 STX". Where they part, the row's transfers stand, or, without them,
 * the row's net from a party it does not name.
 */
export function keepRowsOwnMovement(activity: Activity, principal: string, transfers: Movement[] | null): Activity {
  // Pending rows carry no figures of their own yet: their payload is all there is.
  if (!activity.movements || activity.status === 'pending' || activity.status === 'dropped') return activity;
  const fee = feePaid(activity, principal);
  const said = activity.stxNet + fee;
  if (stxGain(activity.movements, principal) === said) return activity;
  if (transfers && stxGain(transfers, principal) === said) {
    const other = transfers
      .map((move) => (move.recipient === principal ? move.sender : move.recipient))
      .find((party) => party !== null && party !== principal);
    return { ...activity, movements: transfers, counterparty: other ?? null };
  }
  const unnamed: Movement = {
    type: 'stx',
    assetIdentifier: 'STX',
    kind: 'transfer',
    sender: said < 0n ? principal : null,
    recipient: said < 0n ? null : principal,
    amount: said < 0n ? -said : said,
  };
  return { ...activity, movements: said === 0n ? [] : [unnamed], counterparty: null };
}
