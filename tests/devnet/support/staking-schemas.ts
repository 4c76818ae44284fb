/**
 * The Stacks Blockchain API 9.x staking response schemas, transcribed by hand from its TypeBox sources
 * (src/api/schemas/v3/entities/principal-bond-positions.ts, bonds.ts, bond-*.ts, staking-cycles.ts,
 * staking-signers.ts, common.ts and cursors.ts), so that the devnet is held to the API and not to itself.
 */
export type Schema =
  | 'string'
  | 'amount'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'txid'
  | 'principal'
  | { readonly literal: readonly (string | number)[] }
  | { readonly nullable: Schema }
  | { readonly array: Schema }
  | { readonly anyOf: readonly Schema[] }
  | { readonly object: Readonly<Record<string, Schema>> };

const PRINCIPAL = /^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}(\.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39})?$/;

/** Every way `value` breaks `schema`, with its path; empty when it fits. Objects must have exactly their keys. */
export function violations(value: unknown, schema: Schema, path = '$'): string[] {
  const fail = (what: string) => [`${path}: expected ${what}, got ${JSON.stringify(value)}`];
  if (typeof schema === 'string') {
    switch (schema) {
      case 'string':
        return typeof value === 'string' ? [] : fail('a string');
      case 'amount':
        return typeof value === 'string' && /^[0-9]+$/.test(value) ? [] : fail('an integer string');
      case 'integer':
        return Number.isInteger(value) ? [] : fail('an integer');
      case 'number':
        return typeof value === 'number' && Number.isFinite(value) ? [] : fail('a number');
      case 'boolean':
        return typeof value === 'boolean' ? [] : fail('a boolean');
      case 'txid':
        return typeof value === 'string' && /^(0x)?[a-fA-F0-9]{64}$/.test(value) ? [] : fail('a transaction id');
      case 'principal':
        return typeof value === 'string' && PRINCIPAL.test(value) ? [] : fail('a principal');
    }
  }
  if ('literal' in schema)
    return schema.literal.includes(value as string | number) ? [] : fail(`one of ${schema.literal.join(', ')}`);
  if ('nullable' in schema) return value === null ? [] : violations(value, schema.nullable, path);
  if ('array' in schema)
    return Array.isArray(value)
      ? value.flatMap((item, i) => violations(item, schema.array, `${path}[${i}]`))
      : fail('an array');
  if ('anyOf' in schema)
    return schema.anyOf.some((option) => violations(value, option, path).length === 0) ? [] : fail('one of the union');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('an object');
  const keys = Object.keys(value);
  const extra = keys.filter((key) => !(key in schema.object)).map((key) => `${path}.${key}: not in the schema`);
  return [
    ...extra,
    ...Object.entries(schema.object).flatMap(([key, inner]) =>
      key in value
        ? violations((value as Record<string, unknown>)[key], inner, `${path}.${key}`)
        : [`${path}.${key}: missing`],
    ),
  ];
}

const obj = (fields: Record<string, Schema>): Schema => ({ object: fields });

const BTC_REWARDS = obj({ accrued: 'string', claimed: 'string', claimable: 'string' });
const BLOCK_POSITION = obj({
  height: 'integer',
  hash: 'string',
  index_hash: 'string',
  time: 'number',
  tx_index: 'integer',
});
const BITCOIN_BLOCK_POSITION = obj({ height: 'integer', time: 'number' });

/** `CursorPaginatedResponse(result, cursor)`. */
export const paginated = (result: Schema): Schema =>
  obj({
    total: 'integer',
    limit: 'integer',
    cursor: obj({ next: { nullable: 'string' }, previous: { nullable: 'string' }, current: { nullable: 'string' } }),
    results: { array: result },
  });

/** `PrincipalStxBalanceSchema` (principal-balances.ts): `GET /extended/v3/principals/{p}/balances/stx`. */
export const PRINCIPAL_STX_BALANCE = obj({
  balance: 'amount',
  available: 'amount',
  locked: {
    nullable: obj({
      amount: 'amount',
      pox_version: 'integer',
      lock_tx_id: 'txid',
      stacks_lock_height: 'integer',
      burn_lock_height: 'integer',
      burn_unlock_height: 'integer',
    }),
  },
  mempool: { nullable: obj({ estimated_balance: 'amount', inbound: 'amount', outbound: 'amount' }) },
});

export const PRINCIPAL_STAKING_SUMMARY = obj({
  stx: obj({ locked: 'string', rewards: obj({ btc: BTC_REWARDS }) }),
  bonds: obj({
    count: 'integer',
    locked: obj({ btc: 'string', stx: 'string' }),
    rewards: obj({ btc: BTC_REWARDS }),
  }),
});

export const PRINCIPAL_BOND_POSITION = obj({
  bond_index: 'integer',
  status: { literal: ['enrolled', 'running', 'early_exit', 'unlocked'] },
  active: 'boolean',
  enrollment: obj({ tx_id: 'txid', btc_lockup: obj({ amount: 'string' }) }),
  locked: obj({ btc: 'string', stx: 'string' }),
  rewards: obj({ btc: BTC_REWARDS }),
});

const BOND_SUMMARY_FIELDS: Record<string, Schema> = {
  index: 'integer',
  pox_version: { literal: ['pox5'] },
  status: { literal: ['upcoming', 'active', 'unlocked'] },
  parameters: obj({
    target_rate_bps: 'integer',
    stx_value_ratio: 'integer',
    minimum_stx_ratio: 'integer',
    btc_capacity: 'string',
  }),
  registrations: obj({ allowed_count: 'integer', registered_count: 'integer' }),
  schedule: obj({
    activation: obj({ bitcoin_height: 'integer', pox_cycle: 'integer' }),
    unlock: obj({ bitcoin_height: 'integer', pox_cycle: 'integer' }),
  }),
  balances: obj({ locked: obj({ btc: 'string', stx: 'string' }), paid_out: obj({ btc: 'string' }) }),
};
export const BOND_SUMMARY = obj(BOND_SUMMARY_FIELDS);
export const BOND = obj({
  ...BOND_SUMMARY_FIELDS,
  transaction: obj({ tx_id: 'string', block: BLOCK_POSITION, bitcoin_block: BITCOIN_BLOCK_POSITION }),
});

export const BOND_ALLOWLIST_ENTRY = obj({ staker: 'string', max_sats: 'string' });

const REGISTRATION_SUMMARY_FIELDS: Record<string, Schema> = {
  staker: 'string',
  signer: 'string',
  type: { literal: ['l1', 'l2'] },
  balances: obj({ btc: 'amount', stx: 'amount' }),
};
export const BOND_REGISTRATION_SUMMARY = obj(REGISTRATION_SUMMARY_FIELDS);
export const BOND_REGISTRATION: Schema = {
  anyOf: [
    obj({
      ...REGISTRATION_SUMMARY_FIELDS,
      l1_lockup: obj({ transactions: { array: obj({ tx_id: 'txid', output_index: 'integer' }) } }),
    }),
    obj({ ...REGISTRATION_SUMMARY_FIELDS, l2_lockup: obj({ tx_id: 'txid' }) }),
  ],
};

export const STAKING_SIGNER = obj({ signer: 'principal', signer_key: 'string' });
export const STAKING_SIGNER_DETAIL = obj({
  signer: 'principal',
  signer_key: 'string',
  transaction: obj({ tx_id: 'txid', block: BLOCK_POSITION, bitcoin_block: BITCOIN_BLOCK_POSITION }),
});
export const SIGNER_STAKER = obj({ staker: 'principal', types: { array: { literal: ['stx', 'btc'] } } });

export const CYCLE_SIGNER = obj({
  signing_key: 'string',
  weight: obj({ amount: 'integer', percent: 'number' }),
  staked_stx: obj({ amount: 'string', percent: 'number' }),
  signer_managers: {
    array: obj({
      signer_manager: 'principal',
      registered_at: obj({ block_height: 'integer', bitcoin_block_height: 'integer', tx_id: 'txid' }),
      granted_keys: { array: obj({ signer_key: 'string', auth_id: 'string', tx_id: 'txid' }) },
      grant_active: 'boolean',
      pending_key_update: {
        nullable: obj({ signer_key: 'string', effective_cycle: 'integer', tx_id: 'txid' }),
      },
    }),
  },
});
