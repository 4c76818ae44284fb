import type { Network } from './network.ts';

/** The address on the Hiro explorer; for a custom or local node, the explorer is told which API to read. */
export function explorerUrl(principal: string, network: Network, customApi: string | null): string {
  const url = new URL(`https://explorer.hiro.so/address/${encodeURIComponent(principal)}`);
  url.searchParams.set('chain', network);
  if (customApi) url.searchParams.set('api', customApi);
  return url.toString();
}

/** A transaction on the Hiro explorer, read from the same API as the address. */
export function explorerTxUrl(txId: string, network: Network, customApi: string | null): string {
  const url = new URL(`https://explorer.hiro.so/txid/${encodeURIComponent(txId)}`);
  url.searchParams.set('chain', network);
  if (customApi) url.searchParams.set('api', customApi);
  return url.toString();
}
