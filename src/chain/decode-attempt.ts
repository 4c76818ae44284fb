import {
  ARG_REPR_LIMIT,
  type CallArgument,
  type CallAttempt,
  type ConditionCode,
  type PostConditionSpec,
} from '../domain/state/call-attempt.ts';
import type { Field } from './decode.ts';
import { list, object, optional, PayloadError, principal, quantity, text } from './payload.ts';

const CODES: readonly ConditionCode[] = [
  'sent_equal_to',
  'sent_greater_than',
  'sent_greater_than_or_equal_to',
  'sent_less_than',
  'sent_less_than_or_equal_to',
  'sent',
  'not_sent',
  'maybe_sent',
];

/** A printed Clarity value as shown: whitespace folded, cut with an ellipsis past ARG_REPR_LIMIT. */
const shown = (repr: string): string => {
  const folded = repr.replace(/\s+/g, ' ');
  return folded.length > ARG_REPR_LIMIT ? `${folded.slice(0, ARG_REPR_LIMIT - 1)}…` : folded;
};

/**
 * What a failed contract call tried (a v1 transaction, as `/extended/v1/tx/multiple` gives it): its result, its
 * arguments and its post-conditions. Null for anything but a contract call.
 */
export function decodeAttempt(field: Field): CallAttempt | null {
  const tx = object(field.value, field.path);
  if (tx.at('tx_type').value !== 'contract_call') return null;
  const call = object(tx.at('contract_call').value, `${field.path}.contract_call`);
  const result = optional(tx.at('tx_result'), (resultField) => {
    const repr = object(resultField.value, resultField.path).at('repr');
    return typeof repr.value === 'string' ? shown(repr.value) : null;
  });
  const argsField = call.at('function_args');
  const args: CallArgument[] =
    argsField.value === undefined || argsField.value === null
      ? []
      : list(argsField).flatMap((argField) => {
          const arg = object(argField.value, argField.path);
          const name = arg.at('name').value;
          const repr = arg.at('repr').value;
          return typeof name === 'string' && typeof repr === 'string' ? [{ name, repr: shown(repr) }] : [];
        });
  const conditionsField = tx.at('post_conditions');
  const postConditions = Array.isArray(conditionsField.value) ? list(conditionsField).map(postCondition) : [];
  return { result, args, postConditions };
}

function postCondition(field: Field): PostConditionSpec {
  const condition = object(field.value, field.path);
  const code = text(condition.at('condition_code'));
  if (!(CODES as readonly string[]).includes(code))
    throw new PayloadError(`${field.path}.condition_code`, 'a condition code', code);
  const who = object(condition.at('principal').value, `${field.path}.principal`);
  const typeId = text(who.at('type_id'));
  const address = typeId === 'principal_origin' ? null : principal(who.at('address'));
  const owner =
    address === null || typeId !== 'principal_contract' ? address : `${address}.${text(who.at('contract_name'))}`;
  const type = text(condition.at('type'));
  const base = { principal: owner, code: code as ConditionCode };
  if (type === 'stx') return { ...base, type: 'stx', assetIdentifier: 'STX', amount: quantity(condition.at('amount')) };
  const asset = object(condition.at('asset').value, `${field.path}.asset`);
  const assetIdentifier = `${text(asset.at('contract_address'))}.${text(asset.at('contract_name'))}::${text(asset.at('asset_name'))}`;
  if (type === 'fungible') return { ...base, type: 'ft', assetIdentifier, amount: quantity(condition.at('amount')) };
  if (type === 'non_fungible') {
    const value = object(condition.at('asset_value').value, `${field.path}.asset_value`);
    return { ...base, type: 'nft', assetIdentifier, amount: null, nftId: shown(text(value.at('repr'))) };
  }
  throw new PayloadError(`${field.path}.type`, 'stx, fungible or non_fungible', type);
}
