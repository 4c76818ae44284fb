import type { DevnetChain } from '../../mocks/devnet/chain.ts';

/** What a mined transaction did to one address, from the devnet's own ledger: the truth an export must equal. */
export interface LedgerTx {
  readonly txId: string;
  readonly success: boolean;
  /** The fee, when the address paid it. */
  readonly fee: bigint;
  /** Net per asset for the address, fee apart: `STX`, a token's asset identifier, an NFT's `asset#id`. */
  readonly net: ReadonlyMap<string, bigint>;
}

/** Every confirmed canonical transaction of `principal`, newest first, as the ledger applied it. */
export function ledgerHistory(chain: DevnetChain, principal: string): LedgerTx[] {
  return chain.transactionsOf(principal).flatMap((entry) => {
    if (entry.state.kind !== 'confirmed') return [];
    const net = new Map<string, bigint>();
    const add = (key: string, amount: bigint) => net.set(key, (net.get(key) ?? 0n) + amount);
    for (const event of entry.state.outcome.events) {
      if (event.type === 'stx_lock') continue;
      const key =
        event.type === 'stx_transfer'
          ? 'STX'
          : event.type === 'ft_transfer'
            ? event.asset
            : `${event.asset}#u${event.id}`;
      const amount = event.type === 'nft_transfer' ? 1n : event.amount;
      if (event.recipient === principal) add(key, amount);
      if (event.sender === principal) add(key, -amount);
    }
    for (const [key, amount] of net) if (amount === 0n) net.delete(key);
    return [
      {
        txId: entry.signed.txId,
        success: entry.state.outcome.status === 'success',
        fee: entry.signed.sender === principal ? entry.signed.fee : 0n,
        net,
      },
    ];
  });
}
