import type { CallAttempt, ConditionCode, PostConditionSpec } from '../state/call-attempt.ts';
import { poxCall } from '../state/pox-call.ts';
import type { Activity } from '../state/snapshot.ts';
import { formatToken } from './asset-text.ts';
import { formatStx } from '../amount.ts';
import { callTokenAsset, clarityUint, clarityWords, tokenTransferCall } from './clarity-words.ts';
import { amountText, type Naming } from './effect-text.ts';

/* A failed contract call in words: why the chain refused it, and what it tried to move. */

const COMPARED: Partial<Record<ConditionCode, string>> = {
  sent_equal_to: 'exactly',
  sent_greater_than: 'more than',
  sent_greater_than_or_equal_to: 'at least',
  sent_less_than: 'less than',
  sent_less_than_or_equal_to: 'at most',
};

const NFT_VERB: Partial<Record<ConditionCode, string>> = { sent: 'sends', not_sent: 'keeps', maybe_sent: 'may send' };

/**
 * Why the chain refused it, from the node's status and the call's result: "Refused by the contract with error u1" (the
 * contract's own code, as Clarity prints `(err u1)`), "Stopped by a post-condition"; null for anything that did not
 * fail so.
 */
export function failureReason(activity: Activity): string | null {
  if (activity.status !== 'failed') return null;
  if (activity.statusDetail === 'abort_by_response') {
    const result = activity.attempt?.result;
    if (!result) return 'Refused by the contract';
    const code = /^\(err (.+)\)$/s.exec(result)?.[1];
    return code ? `Refused by the contract with error ${code}` : `Refused by the contract: ${result}`;
  }
  if (activity.statusDetail === 'abort_by_post_condition') return 'Stopped by a post-condition';
  return null;
}

/** "Alice sends exactly 4.99 DUSD", "The sender keeps owl u12": one post-condition its sender signed. */
export function postConditionWords(condition: PostConditionSpec, naming: Naming): string {
  const who = condition.principal ? naming.party(condition.principal) : 'The sender';
  const asset = {
    type: condition.type,
    assetIdentifier: condition.assetIdentifier,
    net: condition.amount ?? 1n,
    how: 'transfer' as const,
    counterparties: [],
    nftIds: condition.nftId ? [condition.nftId] : [],
  };
  if (condition.type === 'nft') return `${who} ${NFT_VERB[condition.code] ?? 'sends'} ${amountText(asset, naming)}`;
  return `${who} sends ${COMPARED[condition.code] ?? ''} ${amountText(asset, naming)}`.replace(/ {2}/g, ' ');
}

/** "withdraw (amount u5000000)": the function called and what it was given, exactly as Clarity prints it. */
export function calledWith(functionName: string, attempt: CallAttempt): string {
  if (attempt.args.length === 0) return `${functionName} (no arguments)`;
  return `${functionName} (${attempt.args.map((arg) => `${arg.name} ${arg.repr}`).join(', ')})`;
}

/**
 * A SIP-010 token's `transfer` in words: "send 5.00 WGOLD from Alice to Bob, memo “rent”". The call names the
 * contract, not its asset: the token's decimals and symbol are the contract's, and its name stands in for the asset's
 * where they are unknown.
 */
function tokenTransferWords(
  call: NonNullable<Activity['contractCall']>,
  attempt: CallAttempt,
  naming: Naming,
): string | null {
  const transfer = tokenTransferCall(call, attempt.args);
  if (!transfer) return null;
  const what = formatToken(transfer.amount, callTokenAsset(call.contractId), naming.token(call.contractId));
  const note = transfer.memo === 'none' ? '' : `, memo ${clarityWords(transfer.memo, naming)}`;
  return `send ${what} from ${naming.party(transfer.from)} to ${naming.party(transfer.to)}${note}`;
}

/**
 * What a failed call tried, in words: "send 5.00 WGOLD from Alice to Bob" for a token's transfer, else the function
 * and its arguments as a person reads them: "withdraw (amount 5,000,000)", "stack-stx (amount 20,423.00 STX, lock-period
 * 3)", addresses by their names.
 */
export function triedWords(call: NonNullable<Activity['contractCall']>, attempt: CallAttempt, naming: Naming): string {
  const transfer = tokenTransferWords(call, attempt, naming);
  if (transfer) return transfer;
  if (attempt.args.length === 0) return `${call.functionName} (no arguments)`;
  const pox = poxCall(call) !== null;
  const args = attempt.args.map((arg) => argumentWords(arg.name, arg.repr, naming, pox));
  return `${call.functionName} (${args.join(', ')})`;
}

/** PoX's micro-STX arguments named otherwise: pox-4's `max-amount` and `increase-by`, pox-5's `amount-increase`. */
const POX_MICRO_STX: ReadonlySet<string> = new Set(['max-amount', 'increase-by', 'amount-increase']);
const UINT_MAX = 2n ** 128n - 1n;

/**
 * One argument as a person reads it: an amount the contract takes in micro-STX (`amount-ustx u20423000000`, as PoX's
 * calls name it, or one PoX is known to take so) in STX ("amount 20,423.00 STX", "increase-by 5,000.00 STX"), anything
 * else as Clarity prints it in words.
 */
function argumentWords(name: string, repr: string, naming: Naming, pox: boolean): string {
  const ustx = /^(?:(.+)-)?ustx$/.exec(name);
  const micro = ustx !== null || (pox && POX_MICRO_STX.has(name));
  const amount = micro ? clarityUint(repr) : null;
  // The largest uint as a ceiling (signers' authorisations commonly set `max-amount` so): no limit, not an amount.
  if (amount === UINT_MAX && name.startsWith('max-')) return `${name} no limit`;
  if (amount !== null) return `${ustx ? (ustx[1] ?? 'amount') : name} ${formatStx(amount)}`;
  return `${name} ${clarityWords(repr, naming)}`.trim();
}

/**
 * The line a failed call's row adds: why, and what it tried to move — the post-conditions its sender signed when
 * there are any (they say what the call was allowed to move), else what it tried, in words. Null until the
 * node's answer about it was read.
 */
export function failureLine(activity: Activity, naming: Naming): string | null {
  const reason = failureReason(activity);
  const attempt = activity.attempt;
  if (!reason || !attempt || !activity.contractCall) return reason;
  const tried =
    attempt.postConditions.length > 0
      ? `allowed: ${attempt.postConditions.map((condition) => postConditionWords(condition, naming)).join('; ')}`
      : `tried to ${triedWords(activity.contractCall, attempt, naming)}`;
  return `${reason} · ${tried}`;
}
