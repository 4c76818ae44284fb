import type { TouchingEvent, TouchingTx } from '../domain/chain/touched-principals.ts';
import type { Field } from './decode.ts';
import { integer, list, object, optional, PayloadError, principal, text, txId } from './payload.ts';

/** A transaction as the follower reads it: what names principals, checked, and the node's payload as it came. */
export interface ChainTx {
  readonly txId: string;
  readonly touching: TouchingTx;
  /** The block a mined transaction is in; null for a pending one. */
  readonly blockHash: string | null;
  /** How many events it has, and how many of them `touching.events` holds so far. */
  readonly eventCount: number;
  readonly raw: unknown;
}

/** A name that may be empty (a mint's sender, a burn's recipient), else a principal. */
const party = (field: Field): string => (field.value === '' || field.value == null ? '' : principal(field));

const contractOf = (field: Field) =>
  optional(field, (value) => ({ contract_id: principal(object(value.value, value.path).at('contract_id')) }));

function decodeEvent(field: Field): TouchingEvent {
  const event = object(field.value, field.path);
  const type = text(event.at('event_type'));
  switch (type) {
    case 'stx_asset':
    case 'fungible_token_asset':
    case 'non_fungible_token_asset': {
      const asset = object(event.at('asset').value, `${field.path}.asset`);
      return {
        event_type: type,
        asset: { sender: party(asset.at('sender')), recipient: party(asset.at('recipient')) },
      };
    }
    case 'stx_lock': {
      const lock = object(event.at('stx_lock_event').value, `${field.path}.stx_lock_event`);
      return { event_type: type, stx_lock_event: { locked_address: principal(lock.at('locked_address')) } };
    }
    case 'smart_contract_log': {
      const log = object(event.at('contract_log').value, `${field.path}.contract_log`);
      const value = object(log.at('value').value, `${field.path}.contract_log.value`).at('repr');
      // A print can be long: its representation is only searched for principal literals, never shown.
      if (typeof value.value !== 'string') throw new PayloadError(value.path, 'text', value.value);
      return {
        event_type: type,
        contract_log: { contract_id: principal(log.at('contract_id')), value: { repr: value.value } },
      };
    }
    default:
      return { event_type: type };
  }
}

/** The v1 transaction shape (`/extended/v1/tx/multiple`'s results, the `mempool` topic's payload). */
export function decodeChainTx(field: Field): ChainTx {
  const tx = object(field.value, field.path);
  const id = txId(tx.at('tx_id'));
  const events = tx.at('events').value === undefined ? [] : list(tx.at('events')).map(decodeEvent);
  const transfer = optional(tx.at('token_transfer'), (value) => ({
    recipient_address: principal(object(value.value, value.path).at('recipient_address')),
  }));
  const blockHash = tx.at('block_hash').value;
  return {
    txId: id,
    touching: {
      tx_id: id,
      sender_address: principal(tx.at('sender_address')),
      sponsor_address: optional(tx.at('sponsor_address'), party),
      tx_type: text(tx.at('tx_type')),
      token_transfer: transfer,
      contract_call: contractOf(tx.at('contract_call')),
      smart_contract: contractOf(tx.at('smart_contract')),
      events,
    },
    blockHash: typeof blockHash === 'string' && blockHash !== '' ? blockHash : null,
    eventCount: optional(tx.at('event_count'), integer) ?? 0,
    raw: field.value,
  };
}
