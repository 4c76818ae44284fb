/** The demo chain's tokens, in the shape the token metadata API describes them. */
export interface FungibleToken {
  /** `<contract>::<asset name>`, as the API's asset identifiers. */
  readonly assetIdentifier: string;
  readonly contractId: string;
  /** The asset's name inside its contract (after `::`). */
  readonly assetName: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly totalSupply: bigint;
}

export interface NftCollection {
  readonly assetIdentifier: string;
  readonly contractId: string;
  readonly name: string;
}

export interface DemoAssets {
  /** The demo's tokens, then any deployed later (`POST /devnet/token`). */
  readonly tokens: FungibleToken[];
  readonly nft: NftCollection;
}

export function createDemoAssets(deployer: string): DemoAssets {
  const token = (contract: string, asset: string, name: string, symbol: string, decimals: number, supply: bigint) => ({
    assetIdentifier: `${deployer}.${contract}::${asset}`,
    contractId: `${deployer}.${contract}`,
    assetName: asset,
    name,
    symbol,
    decimals,
    totalSupply: supply,
  });
  return {
    tokens: [
      token('watch-gold', 'gold', 'Watch Gold', 'WGOLD', 8, 21_000_000n * 10n ** 8n),
      token('demo-usd', 'dusd', 'Demo USD', 'DUSD', 6, 1_000_000_000n * 10n ** 6n),
    ],
    nft: {
      assetIdentifier: `${deployer}.stacks-owls::owl`,
      contractId: `${deployer}.stacks-owls`,
      name: 'Stacks Owls',
    },
  };
}
