import type { Intent } from './transactions.ts';

/**
 * A post-condition the devnet signs into a transaction: its sender sends exactly `amount` of a token. The devnet
 * signs one only where a test or the demo wants it broken (a token transfer that moves one unit more than it
 * allows), so that the chain aborts it as a real one would.
 */
export interface DevnetPostCondition {
  readonly principal: string;
  readonly amount: bigint;
  readonly contractId: string;
  readonly assetName: string;
}

export function postConditionsOf(sender: string, intent: Intent): DevnetPostCondition[] {
  if (intent.kind !== 'ft' || !intent.breakPostCondition) return [];
  const { contractId, assetName } = intent.token;
  return [{ principal: sender, amount: intent.amount - 1n, contractId, assetName }];
}

/** The post-conditions as the API's v1 transaction lists them (`post_conditions`). */
export function apiPostConditions(sender: string, intent: Intent) {
  return postConditionsOf(sender, intent).map((condition) => {
    const [contractAddress = '', contractName = ''] = condition.contractId.split('.');
    return {
      type: 'fungible' as const,
      condition_code: 'sent_equal_to' as const,
      amount: condition.amount.toString(),
      principal: { type_id: 'principal_standard' as const, address: condition.principal },
      asset: { contract_address: contractAddress, contract_name: contractName, asset_name: condition.assetName },
    };
  });
}
