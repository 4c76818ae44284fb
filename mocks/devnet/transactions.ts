import {
  bufferCVFromString,
  type ClarityValue,
  makeContractCall,
  listCV,
  makeSTXTokenTransfer,
  noneCV,
  sponsorTransaction,
  Pc,
  PostConditionMode,
  principalCV,
  serializeCV,
  serializeTransaction,
  someCV,
  type StacksTransactionWire,
  tupleCV,
  uintCV,
} from '@stacks/transactions';
import type { MultiSigAccount, SingleSigAccount } from './accounts.ts';
import { clarityRepr } from './clarity-repr.ts';
import { postConditionsOf } from './post-conditions.ts';
import type { FungibleToken, NftCollection } from './assets.ts';
import { isPox5Intent, planPox5Call, type Pox5Intent } from './pox5-intents.ts';

export type Signer = SingleSigAccount | MultiSigAccount;

/** What a transaction means to the ledger; the chain decides at mining time whether it succeeds. */
export type Intent =
  | { readonly kind: 'stx'; readonly recipient: string; readonly amount: bigint; readonly memo: string }
  | {
      readonly kind: 'ft';
      readonly token: FungibleToken;
      readonly recipient: string;
      readonly amount: bigint;
      readonly memo: string;
      /** Signs a post-condition that the transfer violates, so that it aborts by post-condition. */
      readonly breakPostCondition?: boolean;
    }
  | { readonly kind: 'nft'; readonly collection: NftCollection; readonly recipient: string; readonly id: bigint }
  | { readonly kind: 'vault-withdraw'; readonly vault: string; readonly amount: bigint }
  | { readonly kind: 'vault-deposit'; readonly vault: string; readonly amount: bigint }
  /** Signed by the token's deployer: new tokens for the recipient. */
  | { readonly kind: 'ft-mint'; readonly token: FungibleToken; readonly recipient: string; readonly amount: bigint }
  | { readonly kind: 'ft-burn'; readonly token: FungibleToken; readonly amount: bigint }
  | { readonly kind: 'nft-mint'; readonly collection: NftCollection; readonly recipient: string; readonly id: bigint }
  | { readonly kind: 'stack'; readonly amount: bigint; readonly cycles: number }
  /**
   * A `send-many` contract's call (as the one deployed on mainnet): STX to many recipients in one transaction, one
   * `stx_asset` event each, so that a transaction can have more events than the API sends in one page.
   */
  | {
      readonly kind: 'send-many';
      readonly contract: string;
      readonly recipients: readonly { readonly to: string; readonly amount: bigint }[];
    }
  | { readonly kind: 'stack-extend'; readonly cycles: number }
  | Pox5Intent;

export interface FunctionArg {
  readonly hex: string;
  readonly repr: string;
  readonly name: string;
  readonly type: string;
}

export interface ContractCallInfo {
  readonly contractId: string;
  readonly functionName: string;
  readonly functionSignature: string;
  readonly args: readonly FunctionArg[];
}

export interface SignedTx {
  readonly txId: string;
  readonly rawHex: string;
  readonly sender: string;
  readonly nonce: number;
  readonly fee: bigint;
  readonly intent: Intent;
  readonly contractCall: ContractCallInfo | null;
  /** The 34-byte memo of an STX transfer, as the API shows it. */
  readonly memoHex: string | null;
  /** Who pays the fee of a sponsored transaction, and with which of its nonces; null when the sender pays. */
  readonly sponsor: { readonly address: string; readonly nonce: number } | null;
}

/** A sponsor: a single-sig account that pays a transaction's fee, and the nonce it pays it with. */
export interface Sponsorship {
  readonly signer: SingleSigAccount;
  readonly nonce: number;
}

export const POX_CONTRACT = 'ST000000000000000000002AMW42H.pox-4';

type Param = readonly [name: string, type: string, value: ClarityValue];

interface CallPlan {
  readonly contractId: string;
  readonly functionName: string;
  readonly functionSignature: string;
  readonly params: readonly Param[];
}

function planCall(sender: string, intent: Exclude<Intent, { kind: 'stx' }>): CallPlan {
  if (isPox5Intent(intent)) return planPox5Call(intent);
  switch (intent.kind) {
    case 'ft':
      return {
        contractId: intent.token.contractId,
        functionName: 'transfer',
        functionSignature:
          '(define-public (transfer (amount uint) (sender principal) (recipient principal) (memo (optional (buff 34)))))',
        params: [
          ['amount', 'uint', uintCV(intent.amount)],
          ['sender', 'principal', principalCV(sender)],
          ['recipient', 'principal', principalCV(intent.recipient)],
          ['memo', '(optional (buff 34))', intent.memo ? someCV(bufferCVFromString(intent.memo)) : noneCV()],
        ],
      };
    case 'nft':
      return {
        contractId: intent.collection.contractId,
        functionName: 'transfer',
        functionSignature: '(define-public (transfer (id uint) (sender principal) (recipient principal)))',
        params: [
          ['id', 'uint', uintCV(intent.id)],
          ['sender', 'principal', principalCV(sender)],
          ['recipient', 'principal', principalCV(intent.recipient)],
        ],
      };
    case 'vault-withdraw':
      return {
        contractId: intent.vault,
        functionName: 'withdraw',
        functionSignature: '(define-public (withdraw (amount uint)))',
        params: [['amount', 'uint', uintCV(intent.amount)]],
      };
    case 'send-many':
      return {
        contractId: intent.contract,
        functionName: 'send-many',
        functionSignature: '(define-public (send-many (recipients (list 200 (tuple (to principal) (ustx uint))))))',
        params: [
          [
            'recipients',
            '(list 200 (tuple (to principal) (ustx uint)))',
            listCV(intent.recipients.map(({ to, amount }) => tupleCV({ to: principalCV(to), ustx: uintCV(amount) }))),
          ],
        ],
      };
    case 'vault-deposit':
      return {
        contractId: intent.vault,
        functionName: 'deposit',
        functionSignature: '(define-public (deposit (amount uint)))',
        params: [['amount', 'uint', uintCV(intent.amount)]],
      };
    case 'ft-mint':
      return {
        contractId: intent.token.contractId,
        functionName: 'mint',
        functionSignature: '(define-public (mint (amount uint) (recipient principal)))',
        params: [
          ['amount', 'uint', uintCV(intent.amount)],
          ['recipient', 'principal', principalCV(intent.recipient)],
        ],
      };
    case 'ft-burn':
      return {
        contractId: intent.token.contractId,
        functionName: 'burn',
        functionSignature: '(define-public (burn (amount uint) (owner principal)))',
        params: [
          ['amount', 'uint', uintCV(intent.amount)],
          ['owner', 'principal', principalCV(sender)],
        ],
      };
    case 'nft-mint':
      return {
        contractId: intent.collection.contractId,
        functionName: 'mint',
        functionSignature: '(define-public (mint (id uint) (recipient principal)))',
        params: [
          ['id', 'uint', uintCV(intent.id)],
          ['recipient', 'principal', principalCV(intent.recipient)],
        ],
      };
    case 'stack-extend':
      return {
        contractId: POX_CONTRACT,
        functionName: 'stack-extend',
        functionSignature: '(define-public (stack-extend (extend-count uint)))',
        params: [['extend-count', 'uint', uintCV(intent.cycles)]],
      };
    case 'stack':
      return {
        contractId: POX_CONTRACT,
        functionName: 'stack-stx',
        functionSignature: '(define-public (stack-stx (amount-ustx uint) (lock-period uint)))',
        params: [
          ['amount-ustx', 'uint', uintCV(intent.amount)],
          ['lock-period', 'uint', uintCV(intent.cycles)],
        ],
      };
  }
}

const describePlan = ({ params, ...call }: CallPlan): ContractCallInfo => ({
  ...call,
  args: params.map(([name, type, value]) => ({ hex: `0x${serializeCV(value)}`, repr: clarityRepr(value), name, type })),
});

function signerOptions(signer: Signer) {
  return signer.kind === 'single-sig'
    ? { senderKey: signer.privateKey }
    : {
        numSignatures: signer.requiredSignatures,
        publicKeys: [...signer.publicKeys],
        signerKeys: [...signer.signerKeys],
      };
}

/**
 * Builds and signs the transaction for an intent: a real Stacks transaction with a real tx id. With a sponsor, the
 * sender signs it as sponsored and the sponsor then signs the fee (which changes the tx id, as on a real node).
 */
export async function signIntent(
  signer: Signer,
  intent: Intent,
  nonce: number,
  fee: bigint,
  sponsorship: Sponsorship | null = null,
): Promise<SignedTx> {
  const common = {
    network: 'testnet' as const,
    nonce,
    fee: sponsorship ? 0n : fee,
    sponsored: sponsorship !== null,
    ...signerOptions(signer),
  };
  const finish = async (tx: StacksTransactionWire, contractCall: ContractCallInfo | null) => {
    const final = sponsorship
      ? await sponsorTransaction({
          transaction: tx,
          sponsorPrivateKey: sponsorship.signer.privateKey,
          fee,
          sponsorNonce: sponsorship.nonce,
          network: 'testnet',
        })
      : tx;
    const sponsor = sponsorship ? { address: sponsorship.signer.address, nonce: sponsorship.nonce } : null;
    return signed(final, signer, nonce, fee, intent, contractCall, sponsor);
  };
  if (intent.kind === 'stx') {
    const tx = await makeSTXTokenTransfer({
      ...common,
      recipient: intent.recipient,
      amount: intent.amount,
      memo: intent.memo,
    });
    return finish(tx, null);
  }
  const plan = planCall(signer.address, intent);
  const [contractAddress, contractName] = plan.contractId.split('.') as [string, string];
  const postConditions = postConditionsOf(signer.address, intent).map((condition) =>
    Pc.principal(condition.principal)
      .willSendEq(condition.amount)
      .ft(condition.contractId as `${string}.${string}`, condition.assetName),
  );
  const tx = await makeContractCall({
    ...common,
    contractAddress,
    contractName,
    functionName: plan.functionName,
    functionArgs: plan.params.map(([, , value]) => value),
    postConditionMode: PostConditionMode.Allow,
    postConditions,
    validateWithAbi: false,
  });
  return finish(tx, describePlan(plan));
}

function signed(
  tx: StacksTransactionWire,
  signer: Signer,
  nonce: number,
  fee: bigint,
  intent: Intent,
  contractCall: ContractCallInfo | null,
  sponsor: SignedTx['sponsor'],
): SignedTx {
  return {
    txId: `0x${tx.txid()}`,
    rawHex: `0x${serializeTransaction(tx)}`,
    sender: signer.address,
    nonce,
    fee,
    intent,
    contractCall,
    memoHex: intent.kind === 'stx' ? memoHex(intent.memo) : null,
    sponsor,
  };
}

/** The memo as the API shows it: 34 bytes, zero-padded, hex. */
export function memoHex(memo: string): string {
  const bytes = Buffer.alloc(34);
  Buffer.from(memo, 'utf8').copy(bytes, 0, 0, 34);
  return `0x${bytes.toString('hex')}`;
}
