import type { CallAttempt } from '../domain/state/call-attempt.ts';
import type { Activity, ActivityStatus, Movement } from '../domain/state/snapshot.ts';
import { withDetail } from '../domain/state/tx-detail.ts';
import type { Field } from './decode.ts';
import { decodeAttempt } from './decode-attempt.ts';
import { decodeEvents } from './decode-events.ts';
import { keepRowsOwnMovement, rowTransfers } from './own-movement.ts';
import {
  amount,
  integer,
  object,
  optional,
  PayloadError,
  principal as principalOf,
  quantity,
  text,
  txId,
} from './payload.ts';

/* Transactions, mined or pending, from the node's v3, v1 and Socket.IO shapes, as seen by one principal. */

const stxTransfer = (sender: string, recipient: string, moved: bigint): Movement => ({
  type: 'stx',
  assetIdentifier: 'STX',
  kind: 'transfer',
  sender,
  recipient,
  amount: moved,
});

/**
 * An STX transfer's one movement: what it does once mined, or would do while pending or dropped; a failed one
 * moved nothing.
 */
const transferMovements = (status: ActivityStatus, sender: string, recipient: string, moved: bigint): Movement[] =>
  status === 'failed' ? [] : [stxTransfer(sender, recipient, moved)];

/** `abort_by_response`, `abort_by_post_condition`, `problematic_skipped` and any status yet unknown count as failed. */
const statusOf = (status: string): ActivityStatus =>
  status === 'success'
    ? 'success'
    : status === 'pending'
      ? 'pending'
      : status.startsWith('dropped')
        ? 'dropped'
        : 'failed';

const kindOf = (type: string): Activity['kind'] =>
  type === 'token_transfer' || type === 'contract_call' ? type : 'other';

/** A memo as plain text: the bytes read as UTF-8, padding and control characters removed. */
export function memoText(hex: string | null): string | null {
  if (!hex || !/^0x([0-9a-fA-F]{2})*$/.test(hex)) return null;
  const bytes = new Uint8Array((hex.slice(2).match(/../g) ?? []).map((byte) => parseInt(byte, 16)));
  const decoded = new TextDecoder('utf-8', { fatal: false })
    .decode(bytes)
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim();
  return decoded || null;
}

/** One row of v3 `transactions`, as seen by `principal`. */
export function decodeTransactionV3(field: Field, principal: string): Activity {
  const row = object(field.value, field.path);
  const tx = object(row.at('transaction').value, `${field.path}.transaction`);
  const type = text(tx.at('type'));
  const senderField = object(tx.at('sender').value, `${field.path}.transaction.sender`);
  const sender = principalOf(senderField.at('address'));
  // API 9: `sponsor: { address, nonce } | null`; its `balance_changes` already charge the fee to the sponsor.
  const sponsor = optional(tx.at('sponsor'), (sponsorField) =>
    principalOf(object(sponsorField.value, sponsorField.path).at('address')),
  );
  const rawStatus = text(tx.at('status'));
  const block = object(tx.at('block').value, `${field.path}.transaction.block`);
  const changes = object(
    object(row.at('balance_changes').value, `${field.path}.balance_changes`).at('stx').value,
    `${field.path}.balance_changes.stx`,
  );
  const common = {
    txId: txId(tx.at('tx_id')),
    status: statusOf(rawStatus),
    statusDetail: rawStatus,
    kind: kindOf(type),
    stxNet: amount(changes.at('net')),
    fee: quantity(tx.at('fee_rate')),
    blockHeight: integer(block.at('height')),
    txIndex: integer(block.at('tx_index')),
    time: integer(block.at('time')),
    sender,
    nonce: integer(senderField.at('nonce')),
    ...(sponsor ? { sponsor } : {}),
  };
  if (type === 'token_transfer') {
    const transfer = object(tx.at('token_transfer').value, `${field.path}.transaction.token_transfer`);
    const recipient = principalOf(transfer.at('recipient'));
    const memo = optional(transfer.at('memo'), (memoField) => text(object(memoField.value, memoField.path).at('hex')));
    const transferAmount = quantity(transfer.at('amount'));
    const activity: Activity = {
      ...common,
      counterparty: sender === principal ? recipient : sender,
      memo: memoText(memo),
      contractCall: null,
      movements: transferMovements(common.status, sender, recipient, transferAmount),
      transferAmount,
    };
    return keepRowsOwnMovement(activity, principal, null);
  }
  if (type === 'contract_call') {
    const call = object(tx.at('contract_call').value, `${field.path}.transaction.contract_call`);
    const contractCall = {
      contractId: principalOf(call.at('contract_id')),
      functionName: text(call.at('function_name')),
    };
    return {
      ...common,
      counterparty: sender === principal ? contractCall.contractId : sender,
      memo: null,
      contractCall,
    };
  }
  // Coinbase, contract deploys and the like move no STX between parties that a principal sees as a transfer.
  return { ...common, counterparty: sender === principal ? null : sender, memo: null, contractCall: null };
}

/** A v1 transaction (mined or pending) as seen by `principal`, with its STX movement for it. */
function decodeV1Transaction(field: Field, principal: string, stxNet: bigint | null): Activity {
  const tx = object(field.value, field.path);
  const type = text(tx.at('tx_type'));
  const sender = principalOf(tx.at('sender_address'));
  const rawStatus = text(tx.at('tx_status'));
  const status = statusOf(rawStatus);
  const fee = quantity(tx.at('fee_rate'));
  const sponsor = sponsorOf(tx);
  // The fee is the sponsor's to pay in a sponsored transaction, never its sender's.
  const ownFee = (sponsor ?? sender) === principal ? fee : 0n;
  const pending = status === 'pending' || status === 'dropped';
  let counterparty: string | null = null;
  let memo: string | null = null;
  let contractCall: Activity['contractCall'] = null;
  let movements: Movement[] | undefined;
  let transferAmount: bigint | undefined;
  let net = stxNet ?? -ownFee;
  if (type === 'token_transfer') {
    const transfer = object(tx.at('token_transfer').value, `${field.path}.token_transfer`);
    const recipient = principalOf(transfer.at('recipient_address'));
    const moved = quantity(transfer.at('amount'));
    transferAmount = moved;
    counterparty = sender === principal ? recipient : sender;
    memo = memoText(optional(transfer.at('memo'), text));
    movements = transferMovements(status, sender, recipient, moved);
    if (stxNet === null && status !== 'failed')
      net = (recipient === principal ? moved : 0n) - (sender === principal ? moved : 0n) - ownFee;
  } else if (type === 'contract_call') {
    const call = object(tx.at('contract_call').value, `${field.path}.contract_call`);
    contractCall = { contractId: principalOf(call.at('contract_id')), functionName: text(call.at('function_name')) };
    counterparty = sender === principal ? contractCall.contractId : sender;
  }
  return {
    txId: txId(tx.at('tx_id')),
    status,
    statusDetail: rawStatus,
    kind: kindOf(type),
    counterparty,
    stxNet: net,
    fee,
    memo,
    contractCall,
    blockHeight: pending ? null : integer(tx.at('block_height')),
    ...(pending || tx.at('tx_index').value === undefined ? {} : { txIndex: integer(tx.at('tx_index')) }),
    time: pending ? integer(tx.at('receipt_time')) : integer(tx.at('block_time')),
    sender,
    nonce: integer(tx.at('nonce')),
    ...(sponsor ? { sponsor } : {}),
    ...(movements ? { movements } : {}),
    ...(transferAmount === undefined ? {} : { transferAmount }),
    ...(status === 'dropped' ? { replacedBy: optional(tx.at('replaced_by_tx_id'), txId) } : {}),
    ...(pending && contractCall ? pendingAttempt(field) : {}),
  };
}

/**
 * What a call not mined is asked to do, from its arguments (a token's transfer is told by what it would move). Words
 * only: a part the app cannot read leaves them to the call's name, and the transaction is still followed.
 */
function pendingAttempt(field: Field): { attempt?: CallAttempt } {
  try {
    const attempt = decodeAttempt(field);
    return attempt ? { attempt } : {};
  } catch (error) {
    if (error instanceof PayloadError) return {};
    throw error;
  }
}

/** A v1 transaction's sponsor (`sponsored`, `sponsor_address`), null when its sender paid the fee. */
function sponsorOf(tx: ReturnType<typeof object>): string | null {
  return tx.at('sponsored').value === true ? optional(tx.at('sponsor_address'), principalOf) : null;
}

/**
 * The `address-transaction` topic and v1 `transactions_with_transfers` rows: `{ tx, stx_sent, stx_received }`.
 * API 9.0.2 counts the fee in the sender's `stx_sent` even when a sponsor paid it (and in nobody's when the sponsor
 * reads its own row): the fee the row counted is taken back and the one the principal paid is counted instead.
 */
export function decodeWithTransfers(field: Field, principal: string): Activity {
  const row = object(field.value, field.path);
  const transfers = rowTransfers(row.at('stx_transfers'));
  const sent = quantity(row.at('stx_sent'));
  let net = quantity(row.at('stx_received')) - sent;
  const tx = object(row.at('tx').value, `${field.path}.tx`);
  const sponsor = sponsorOf(tx);
  if (sponsor !== null) {
    const fee = quantity(tx.at('fee_rate'));
    const sender = principalOf(tx.at('sender_address'));
    const movedOut = transfers?.reduce((sum, move) => (move.sender === principal ? sum + move.amount : sum), 0n);
    // The fee in `stx_sent`: beyond what the row's transfers sent, or, without them, the API's rule (the sender's).
    const counted = movedOut === undefined ? (sender === principal ? fee : 0n) : sent - movedOut;
    net += counted - (sponsor === principal ? fee : 0n);
  }
  return keepRowsOwnMovement(decodeV1Transaction(row.at('tx'), principal, net), principal, transfers);
}

/** Who a v1 mempool transaction involves: sender, sponsor, STX recipient, called contract. */
export function mempoolParties(field: Field): string[] {
  const tx = object(field.value, field.path);
  const type = text(tx.at('tx_type'));
  const parties = [principalOf(tx.at('sender_address'))];
  // The sponsor pays the fee: its balance moves too.
  const sponsor = sponsorOf(tx);
  if (sponsor !== null) parties.push(sponsor);
  if (type === 'token_transfer')
    parties.push(
      principalOf(object(tx.at('token_transfer').value, `${field.path}.token_transfer`).at('recipient_address')),
    );
  if (type === 'contract_call')
    parties.push(principalOf(object(tx.at('contract_call').value, `${field.path}.contract_call`).at('contract_id')));
  return parties;
}

/** A v1 mempool transaction (the `mempool` topic, v1 mempool lists) as seen by one of its parties. */
export const decodeMempoolV1 = (field: Field, principal: string): Activity =>
  decodeV1Transaction(field, principal, null);

/**
 * A mined v1 transaction with its events (`/extended/v1/tx/multiple`, as the relay's chain follower reads each block)
 * as seen by `principal`: every movement known at once, its STX net from its STX events, less the fee when this
 * principal paid it (the sponsor of a sponsored transaction, else its sender). A failed one moved nothing.
 */
export function decodeChainActivity(field: Field, principal: string): Activity {
  const tx = object(field.value, field.path);
  const failed = statusOf(text(tx.at('tx_status'))) === 'failed';
  const detail =
    failed || tx.at('events').value === undefined ? { movements: [], locked: null } : decodeEvents(tx.at('events'));
  const payer =
    tx.at('sponsored').value === true ? principalOf(tx.at('sponsor_address')) : principalOf(tx.at('sender_address'));
  let net = payer === principal ? -quantity(tx.at('fee_rate')) : 0n;
  for (const movement of detail.movements) {
    if (movement.type !== 'stx') continue;
    if (movement.recipient === principal) net += movement.amount;
    if (movement.sender === principal) net -= movement.amount;
  }
  return withDetail(decodeV1Transaction(field, principal, net), principal, detail);
}
