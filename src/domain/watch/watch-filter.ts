import { compactAddressInput } from '../address/address-input.ts';
import { NETWORK_LABEL, type Network } from '../network.ts';
import type { WatchEntry } from './watch-entry.ts';

export type NetworkFilter = Network | 'all';

/**
 * The entries matching a search, in list order: every word must appear in the label, the BNS name (the one it was
 * added by, or the one the app resolved for it since: `resolvedName`), the address or the network's name
 * (case-insensitive). An address typed with spaces is matched without them.
 */
export function filterEntries(
  entries: readonly WatchEntry[],
  query: string,
  network: NetworkFilter = 'all',
  resolvedName: (principal: string) => string | null | undefined = () => null,
): readonly WatchEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const whole = compactAddressInput(query).toLowerCase();
  if (words.length === 0 && network === 'all') return entries;
  return entries.filter((entry) => {
    if (network !== 'all' && entry.network !== network) return false;
    const names = `${entry.name ?? ''} ${resolvedName(entry.principal) ?? ''}`;
    const text = `${entry.label} ${names} ${entry.principal} ${NETWORK_LABEL[entry.network]}`.toLowerCase();
    const principal = entry.principal.toLowerCase();
    return words.every((word) => text.includes(word)) || (whole.length > 3 && principal.includes(whole));
  });
}
