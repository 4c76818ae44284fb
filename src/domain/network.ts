export const NETWORKS = ['mainnet', 'testnet'] as const;
export type Network = (typeof NETWORKS)[number];

export const isNetwork = (value: unknown): value is Network =>
  typeof value === 'string' && (NETWORKS as readonly string[]).includes(value);

export const NETWORK_LABEL: Record<Network, string> = { mainnet: 'Mainnet', testnet: 'Testnet' };
