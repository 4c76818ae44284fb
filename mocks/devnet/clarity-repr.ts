import { ClarityType, type ClarityValue, cvToString } from '@stacks/transactions';

/**
 * A Clarity value as the node prints it (the API's `repr`): as @stacks/transactions' `cvToString` writes it, but for
 * principals, which Clarity prints as literals with a leading quote (`'ST1…`, `'ST1….vault`; the recorded
 * `(stacker 'ST18MDW2…)` of tests/fixtures/real-api/extended_v1_tx_multiple.json), at any depth.
 */
export function clarityRepr(value: ClarityValue): string {
  switch (value.type) {
    case ClarityType.PrincipalStandard:
    case ClarityType.PrincipalContract:
      return `'${cvToString(value)}`;
    case ClarityType.OptionalSome:
      return `(some ${clarityRepr(value.value)})`;
    case ClarityType.ResponseOk:
      return `(ok ${clarityRepr(value.value)})`;
    case ClarityType.ResponseErr:
      return `(err ${clarityRepr(value.value)})`;
    case ClarityType.List:
      return `(list ${value.value.map(clarityRepr).join(' ')})`;
    case ClarityType.Tuple:
      return `(tuple ${Object.entries(value.value)
        .map(([key, item]) => `(${key} ${clarityRepr(item)})`)
        .join(' ')})`;
    default:
      return cvToString(value);
  }
}
