import { isRecord } from '../is-record.ts';
import { err, ok, type Result } from '../result.ts';
import { ARG_REPR_LIMIT, type CallArgument } from '../state/call-attempt.ts';
import type { Activity, AssetChange, Movement, TokenMetadata } from '../state/snapshot.ts';

/** Facts read back, with their amounts as bigints again: what the wording code takes. */
export interface ReadFacts {
  readonly subject: string;
  readonly activity: Activity | null;
  readonly amount: bigint | null;
  readonly recalled: boolean;
  /** Pending again after a re-org took its block away (AlertFacts.afterRevert). */
  readonly afterRevert: boolean;
  readonly names: ReadonlyMap<string, string>;
  readonly tokens: ReadonlyMap<string, TokenMetadata>;
}

const STATUSES = ['pending', 'success', 'failed', 'dropped'];
const KINDS = ['token_transfer', 'contract_call', 'other'];
const INTEGER = /^-?\d{1,40}$/;
const PRINCIPAL = /^S[0-9A-Z]{20,50}(\.[A-Za-z][A-Za-z0-9_-]{0,127})?$/;

class Refused extends Error {}
const refuse = (message: string): never => {
  throw new Refused(message);
};

const record = (value: unknown, where: string): Record<string, unknown> =>
  isRecord(value) ? value : refuse(`${where} must be an object`);
const text = (value: unknown, where: string, limit = 200): string =>
  typeof value === 'string' && value.length <= limit
    ? value
    : refuse(`${where} must be a string of at most ${limit} characters`);
const maybe = <T>(value: unknown, read: (value: unknown) => T): T | null =>
  value === null || value === undefined ? null : read(value);
const amount = (value: unknown, where: string): bigint =>
  typeof value === 'string' && INTEGER.test(value)
    ? BigInt(value)
    : refuse(`${where} must be a decimal integer string`);
const principal = (value: unknown, where: string): string =>
  typeof value === 'string' && PRINCIPAL.test(value) ? value : refuse(`${where} must be a Stacks principal`);
const oneOf = <T extends string>(value: unknown, options: readonly string[], where: string): T =>
  typeof value === 'string' && options.includes(value)
    ? (value as T)
    : refuse(`${where} must be one of ${options.join(', ')}`);
const count = (value: unknown, where: string): number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0
    ? value
    : refuse(`${where} must be a whole number`);
const list = (value: unknown, where: string, limit = 200): unknown[] =>
  Array.isArray(value) && value.length <= limit ? value : refuse(`${where} must be a list of at most ${limit}`);

function movement(raw: unknown, where: string): Movement {
  const m = record(raw, where);
  const nftId = maybe(m['nftId'], (v) => text(v, `${where}.nftId`));
  return {
    type: oneOf(m['type'], ['stx', 'ft', 'nft'], `${where}.type`),
    assetIdentifier: text(m['assetIdentifier'], `${where}.assetIdentifier`, 300),
    kind: oneOf(m['kind'], ['transfer', 'mint', 'burn'], `${where}.kind`),
    sender: maybe(m['sender'], (v) => principal(v, `${where}.sender`)),
    recipient: maybe(m['recipient'], (v) => principal(v, `${where}.recipient`)),
    amount: amount(m['amount'], `${where}.amount`),
    ...(nftId === null ? {} : { nftId }),
  };
}

function assetChange(raw: unknown, where: string): AssetChange {
  const a = record(raw, where);
  return {
    type: oneOf(a['type'], ['ft', 'nft'], `${where}.type`),
    assetIdentifier: text(a['assetIdentifier'], `${where}.assetIdentifier`, 300),
    net: amount(a['net'], `${where}.net`),
  };
}

function activity(raw: unknown): Activity {
  const a = record(raw, 'facts.activity');
  const call = maybe(a['contractCall'], (v) => record(v, 'facts.activity.contractCall'));
  const sender = maybe(a['sender'], (v) => principal(v, 'facts.activity.sender'));
  const nonce = maybe(a['nonce'], (v) => count(v, 'facts.activity.nonce'));
  const sponsor = maybe(a['sponsor'], (v) => principal(v, 'facts.activity.sponsor'));
  const replacedBy = maybe(a['replacedBy'], (v) => text(v, 'facts.activity.replacedBy', 66));
  return {
    txId: text(a['txId'], 'facts.activity.txId', 66),
    status: oneOf(a['status'], STATUSES, 'facts.activity.status'),
    kind: oneOf(a['kind'], KINDS, 'facts.activity.kind'),
    counterparty: maybe(a['counterparty'], (v) => principal(v, 'facts.activity.counterparty')),
    stxNet: amount(a['stxNet'], 'facts.activity.stxNet'),
    fee: amount(a['fee'], 'facts.activity.fee'),
    memo: maybe(a['memo'], (v) => text(v, 'facts.activity.memo', 400)),
    contractCall: call && {
      contractId: principal(call['contractId'], 'facts.activity.contractCall.contractId'),
      functionName: text(call['functionName'], 'facts.activity.contractCall.functionName', 128),
    },
    blockHeight: maybe(a['blockHeight'], (v) => count(v, 'facts.activity.blockHeight')),
    time: count(a['time'], 'facts.activity.time'),
    ...(a['assets'] === undefined
      ? {}
      : {
          assets: maybe(a['assets'], (v) =>
            list(v, 'facts.activity.assets').map((x, i) => assetChange(x, `facts.activity.assets[${i}]`)),
          ),
        }),
    ...(a['movements'] === undefined
      ? {}
      : {
          movements: maybe(a['movements'], (v) =>
            list(v, 'facts.activity.movements').map((x, i) => movement(x, `facts.activity.movements[${i}]`)),
          ),
        }),
    ...(sender === null ? {} : { sender }),
    ...(nonce === null ? {} : { nonce }),
    ...(sponsor === null ? {} : { sponsor }),
    ...(a['replacedBy'] === undefined ? {} : { replacedBy }),
    ...(a['statusDetail'] === undefined
      ? {}
      : { statusDetail: text(a['statusDetail'], 'facts.activity.statusDetail', 64) }),
    // A pending token transfer call's arguments (AlertFacts' args): its result is not known yet, nor read here.
    ...(a['args'] === undefined ? {} : { attempt: { result: null, args: callArgs(a['args']), postConditions: [] } }),
    ...(a['transferAmount'] === undefined
      ? {}
      : { transferAmount: amount(a['transferAmount'], 'facts.activity.transferAmount') }),
  };
}

function callArgs(raw: unknown): CallArgument[] {
  return list(raw, 'facts.activity.args', 20).map((value, i) => {
    const arg = record(value, `facts.activity.args[${i}]`);
    return {
      name: text(arg['name'], `facts.activity.args[${i}].name`, 128),
      repr: text(arg['repr'], `facts.activity.args[${i}].repr`, ARG_REPR_LIMIT),
    };
  });
}

function names(raw: unknown): Map<string, string> {
  const given = record(raw ?? {}, 'facts.names');
  return new Map(
    Object.entries(given).map(([who, name]) => [
      principal(who, 'a key of facts.names'),
      text(name, `facts.names["${who}"]`, 100),
    ]),
  );
}

function tokens(raw: unknown): Map<string, TokenMetadata> {
  const given = record(raw ?? {}, 'facts.tokens');
  return new Map(
    Object.entries(given).map(([contract, value]) => {
      const m = record(value, `facts.tokens["${contract}"]`);
      const decimals = count(m['decimals'], `facts.tokens["${contract}"].decimals`);
      if (decimals > 38) refuse(`facts.tokens["${contract}"].decimals must be at most 38`);
      const meta = {
        name: text(m['name'], 'a token name', 100),
        symbol: text(m['symbol'], 'a token symbol', 32),
        decimals,
      };
      return [principal(contract, 'a key of facts.tokens'), meta];
    }),
  );
}

/** Reads an alert's facts; the error names the first field that is wrong and what was expected. */
export function readAlertFacts(raw: unknown): Result<ReadFacts, string> {
  try {
    const f = record(raw, 'facts');
    if (typeof f['recalled'] !== 'boolean') refuse('facts.recalled must be true or false');
    if (f['afterRevert'] !== undefined && f['afterRevert'] !== true)
      refuse('facts.afterRevert must be true, or absent');
    return ok({
      subject: text(f['subject'], 'facts.subject', 200),
      activity: maybe(f['activity'], activity),
      amount: maybe(f['amount'], (v) => amount(v, 'facts.amount')),
      recalled: f['recalled'] as boolean,
      afterRevert: f['afterRevert'] === true,
      names: names(f['names']),
      tokens: tokens(f['tokens']),
    });
  } catch (error) {
    if (error instanceof Refused) return err(error.message);
    throw error;
  }
}
