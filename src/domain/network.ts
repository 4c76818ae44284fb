export const NETWORKS = ['mainnet', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

export const isNetwork = (value: unknown): value is Network =>
  typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);

export const NETWORK_LABEL: Record<Network, string> = { mainnet: 'Mainnet', testnet: 'Testnet' };

/** The networks of the addresses a screen shows. */
export const networksOf = (items: Iterable<{ readonly network: Network }>): ReadonlySet<Network> =>
  new Set(Array.from(items, (item) => item.network));

/**
 * Whether an address earns a mark of its network: only where the mark tells something apart (the addresses span
 * more than one network), and then on testnet ones, the exception beside mainnet, as wallets mark it. Where all
 * are on one network, the totals' heading names it once.
 */
export const marksNetwork = (network: Network, inUse: ReadonlySet<Network>): boolean =>
  network !== 'mainnet' && inUse.size > 1;
