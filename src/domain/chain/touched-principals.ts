/**
 * Who a transaction touches, from the transaction as the API shows it (`/extended/v1/tx/multiple`, the `mempool`
 * topic): its sender, its sponsor, an STX transfer's recipient, the contract it calls or deploys, and the sender and
 * recipient of every asset event, whoever STX were locked for, and every principal a PoX print names. The follower
 * looks the watched set up in this list once per block, whatever the number of principals it follows.
 */

/** The parts of an API transaction (v1 shape) that name principals; the chain adapter validates them first. */
export interface TouchingTx {
  readonly tx_id: string;
  readonly sender_address: string;
  readonly sponsor_address?: string | null;
  readonly tx_type: string;
  readonly token_transfer?: { readonly recipient_address: string } | null;
  readonly contract_call?: { readonly contract_id: string } | null;
  readonly smart_contract?: { readonly contract_id: string } | null;
  /** A mined transaction's events; a pending one has none. */
  readonly events?: readonly TouchingEvent[];
}

export type TouchingEvent =
  | {
      readonly event_type: 'stx_asset' | 'fungible_token_asset' | 'non_fungible_token_asset';
      readonly asset: { readonly sender?: string | null; readonly recipient?: string | null };
    }
  | { readonly event_type: 'stx_lock'; readonly stx_lock_event: { readonly locked_address: string } }
  | {
      readonly event_type: 'smart_contract_log';
      readonly contract_log: { readonly contract_id: string; readonly value: { readonly repr: string } };
    }
  | { readonly event_type: string };

/** The boot contracts' addresses (mainnet, testnet): PoX prints come from `<boot>.pox-N`. */
const BOOT_ADDRESSES = new Set(['SP000000000000000000002Q6VF78', 'ST000000000000000000002AMW42H']);
/** A principal literal in a Clarity value's representation: `'ST…` or `'ST….contract-name`. */
const PRINCIPAL_LITERAL = /'(S[0-9A-HJKMNP-TV-Z]{28,40}(?:\.[a-zA-Z][a-zA-Z0-9_-]{0,39})?)/g;

/** Whether a contract is one of PoX's boot contracts (pox-4, pox-5, …), whose prints tell staking news. */
export function isPoxContract(contractId: string): boolean {
  const [address = '', name = ''] = contractId.split('.');
  return BOOT_ADDRESSES.has(address) && /^pox(-\d+)?$/.test(name);
}

/** Every principal a PoX print names (the staker, its signer, a bond's participants), in the order it names them. */
export function principalsInPrint(repr: string): string[] {
  return [...repr.matchAll(PRINCIPAL_LITERAL)].map((match) => match[1]!);
}

function eventParties(event: TouchingEvent): string[] {
  if ('asset' in event) return [event.asset.sender ?? '', event.asset.recipient ?? ''];
  if ('stx_lock_event' in event) return [event.stx_lock_event.locked_address];
  if ('contract_log' in event && isPoxContract(event.contract_log.contract_id))
    return principalsInPrint(event.contract_log.value.repr);
  return [];
}

/** Every principal the transaction touches, once each, the sender first; empty names (a mint's sender) left out. */
export function principalsTouchedBy(tx: TouchingTx): string[] {
  const found = [
    tx.sender_address,
    tx.sponsor_address ?? '',
    tx.token_transfer?.recipient_address ?? '',
    tx.contract_call?.contract_id ?? '',
    tx.smart_contract?.contract_id ?? '',
    ...(tx.events ?? []).flatMap(eventParties),
  ];
  return [...new Set(found.filter((principal) => principal !== ''))];
}
