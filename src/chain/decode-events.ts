import { stakedByPrint } from '../domain/chain/stake-print.ts';
import type { Movement } from '../domain/state/snapshot.ts';
import type { Field } from './decode.ts';
import { list, object, optional, PayloadError, principal as principalOf, quantity, text } from './payload.ts';

/* A v1 transaction's events: every asset it moved, between which parties, and the STX it locked. */

function movementKind(value: string, path: string): Movement['kind'] {
  if (value === 'transfer' || value === 'mint' || value === 'burn') return value;
  throw new PayloadError(path, 'transfer, mint or burn', value);
}

/**
 * The asset events of a v1 transaction (`/extended/v1/tx/{id}`, `/tx/multiple`): every movement, both parties, and
 * the STX it locked (a pox-4 `stx_lock` event, or pox-5's print of a stake, which has no such event).
 */
export function decodeEvents(field: Field): { movements: Movement[]; locked: bigint | null } {
  const movements: Movement[] = [];
  let locked: bigint | null = null;
  for (const eventField of list(field)) {
    const event = object(eventField.value, eventField.path);
    const type = text(event.at('event_type'));
    if (type === 'stx_lock') {
      const lock = object(event.at('stx_lock_event').value, `${eventField.path}.stx_lock_event`);
      locked = (locked ?? 0n) + quantity(lock.at('locked_amount'));
      continue;
    }
    if (type === 'smart_contract_log') {
      const log = object(event.at('contract_log').value, `${eventField.path}.contract_log`);
      const value = object(log.at('value').value, `${eventField.path}.contract_log.value`);
      const staked = stakedByPrint(text(log.at('contract_id')), text(value.at('repr')));
      if (staked !== null) locked = (locked ?? 0n) + staked;
      continue;
    }
    if (type !== 'stx_asset' && type !== 'fungible_token_asset' && type !== 'non_fungible_token_asset') continue;
    const asset = object(event.at('asset').value, `${eventField.path}.asset`);
    const kind = movementKind(text(asset.at('asset_event_type')), `${eventField.path}.asset.asset_event_type`);
    const party = (key: string) => (asset.at(key).value === '' ? null : optional(asset.at(key), principalOf));
    const common = {
      kind,
      sender: kind === 'mint' ? null : party('sender'),
      recipient: kind === 'burn' ? null : party('recipient'),
    };
    if (type === 'stx_asset')
      movements.push({ type: 'stx', assetIdentifier: 'STX', amount: quantity(asset.at('amount')), ...common });
    else if (type === 'fungible_token_asset')
      movements.push({
        type: 'ft',
        assetIdentifier: text(asset.at('asset_id')),
        amount: quantity(asset.at('amount')),
        ...common,
      });
    else {
      const value = object(asset.at('value').value, `${eventField.path}.asset.value`);
      movements.push({
        type: 'nft',
        assetIdentifier: text(asset.at('asset_id')),
        amount: 1n,
        nftId: text(value.at('repr')),
        ...common,
      });
    }
  }
  return { movements, locked };
}
