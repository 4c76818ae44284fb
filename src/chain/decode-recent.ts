import type { Field } from './decode.ts';
import { integer, list, object, principal, text, txId } from './payload.ts';

/**
 * A mined transaction of the node-wide list (`/extended/v1/tx`, newest first, without its events): who it names
 * itself, and whether its events can name more.
 */
export interface RecentTx {
  readonly txId: string;
  readonly height: number;
  /** Sender, sponsor, STX recipient, called or deployed contract. */
  readonly parties: readonly string[];
  /** Whether its events must be read to know everyone it moved assets for (an STX transfer's one event is known). */
  readonly needsEvents: boolean;
  readonly eventCount: number;
}

const optionalPrincipal = (field: Field): string[] =>
  field.value === undefined || field.value === null || field.value === '' ? [] : [principal(field)];

export function decodeRecentTx(field: Field): RecentTx {
  const tx = object(field.value, field.path);
  const type = text(tx.at('tx_type'));
  const parties = [...optionalPrincipal(tx.at('sender_address')), ...optionalPrincipal(tx.at('sponsor_address'))];
  if (type === 'token_transfer')
    parties.push(
      principal(object(tx.at('token_transfer').value, `${field.path}.token_transfer`).at('recipient_address')),
    );
  if (type === 'contract_call')
    parties.push(principal(object(tx.at('contract_call').value, `${field.path}.contract_call`).at('contract_id')));
  if (type === 'smart_contract')
    parties.push(principal(object(tx.at('smart_contract').value, `${field.path}.smart_contract`).at('contract_id')));
  const eventCount = integer(tx.at('event_count'));
  return {
    txId: txId(tx.at('tx_id')),
    height: integer(tx.at('block_height')),
    parties,
    needsEvents: type !== 'token_transfer' && eventCount > 0,
    eventCount,
  };
}

/** Every principal a transaction's events name: both parties of each asset movement, and whoever STX were locked for. */
export function decodeEventParties(field: Field): string[] {
  const parties = new Set<string>();
  for (const eventField of list(field)) {
    const event = object(eventField.value, eventField.path);
    const type = text(event.at('event_type'));
    if (type === 'stx_lock') {
      const lock = object(event.at('stx_lock_event').value, `${eventField.path}.stx_lock_event`);
      for (const party of optionalPrincipal(lock.at('locked_address'))) parties.add(party);
      continue;
    }
    if (type !== 'stx_asset' && type !== 'fungible_token_asset' && type !== 'non_fungible_token_asset') continue;
    const asset = object(event.at('asset').value, `${eventField.path}.asset`);
    for (const key of ['sender', 'recipient']) for (const party of optionalPrincipal(asset.at(key))) parties.add(party);
  }
  return [...parties];
}
