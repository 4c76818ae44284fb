import {
  bufferCV,
  type ClarityValue,
  contractPrincipalCV,
  listCV,
  noneCV,
  principalCV,
  responseErrorCV,
  responseOkCV,
  tupleCV,
  uintCV,
} from '@stacks/transactions';
import { POX5_CONTRACT } from './pox5.ts';

/** A lockup proven on Bitcoin for an `l1` bond registration (the devnet invents the Bitcoin side). */
export interface L1Output {
  readonly txid: string;
  readonly outputIndex: number;
  readonly sats: bigint;
}

/** The pox-5 calls the devnet signs: what each means to the ledger is decided at mining time. */
export type Pox5Intent =
  | {
      readonly kind: 'pox5-stake';
      readonly signer: string;
      readonly amount: bigint;
      readonly cycles: number;
      /** A burn height of the cycle the stake is signed in: pox-5 refuses it once mined in a later cycle. */
      readonly startBurnHeight: number;
    }
  | {
      readonly kind: 'pox5-stake-update';
      readonly signer: string;
      readonly amountIncrease: bigint;
      readonly cyclesToExtend: number;
    }
  | { readonly kind: 'pox5-unstake'; readonly signer: string }
  /** Sent by a staker to its signer manager, which pulls the rewards from pox-5 and pays them out. */
  | { readonly kind: 'pox5-claim'; readonly signer: string; readonly rewardCycle: number }
  | {
      readonly kind: 'pox5-setup-bond';
      readonly index: number;
      readonly targetRateBps: number;
      readonly stxValueRatio: number;
      readonly minUstxRatio: number;
      readonly admin: string;
      readonly allowlist: readonly { readonly staker: string; readonly maxSats: bigint }[];
    }
  | {
      readonly kind: 'pox5-register-bond';
      readonly index: number;
      readonly signer: string;
      readonly ustx: bigint;
      readonly lockup:
        { readonly type: 'l1'; readonly outputs: readonly L1Output[] } | { readonly type: 'l2'; readonly sats: bigint };
    }
  | { readonly kind: 'pox5-early-exit'; readonly staker: string; readonly signer: string }
  | { readonly kind: 'pox5-unstake-sbtc'; readonly signer: string; readonly sats: bigint }
  | { readonly kind: 'pox5-pause-rewards' };

export const isPox5Intent = (intent: { kind: string }): intent is Pox5Intent => intent.kind.startsWith('pox5-');

type Param = readonly [name: string, type: string, value: ClarityValue];

const TRAIT = '<signer-manager-trait>';
const contractCV = (id: string) => {
  const [address, name] = id.split('.') as [string, string];
  return contractPrincipalCV(address, name);
};
const call = (functionName: string, signature: string, params: readonly Param[], contractId = POX5_CONTRACT) => ({
  contractId,
  functionName,
  functionSignature: `(define-public (${[functionName, signature].filter(Boolean).join(' ')}))`,
  params,
});

/** The contract call each intent is, with pox-5.clar's function names and argument lists. */
export function planPox5Call(intent: Pox5Intent) {
  switch (intent.kind) {
    case 'pox5-stake':
      return call(
        'stake',
        '(signer-manager <signer-manager-trait>) (amount-ustx uint) (num-cycles uint) (start-burn-ht uint) (signer-calldata (optional (buff 500)))',
        [
          ['signer-manager', TRAIT, contractCV(intent.signer)],
          ['amount-ustx', 'uint', uintCV(intent.amount)],
          ['num-cycles', 'uint', uintCV(intent.cycles)],
          ['start-burn-ht', 'uint', uintCV(intent.startBurnHeight)],
          ['signer-calldata', '(optional (buff 500))', noneCV()],
        ],
      );
    case 'pox5-stake-update':
      return call(
        'stake-update',
        '(signer-manager <signer-manager-trait>) (old-signer-manager <signer-manager-trait>) (cycles-to-extend uint) (amount-increase uint) (signer-calldata (optional (buff 500)))',
        [
          ['signer-manager', TRAIT, contractCV(intent.signer)],
          ['old-signer-manager', TRAIT, contractCV(intent.signer)],
          ['cycles-to-extend', 'uint', uintCV(intent.cyclesToExtend)],
          ['amount-increase', 'uint', uintCV(intent.amountIncrease)],
          ['signer-calldata', '(optional (buff 500))', noneCV()],
        ],
      );
    case 'pox5-unstake':
      return call('unstake', '(old-signer-manager <signer-manager-trait>)', [
        ['old-signer-manager', TRAIT, contractCV(intent.signer)],
      ]);
    case 'pox5-claim':
      return call(
        'claim-rewards',
        '(reward-cycle uint)',
        [['reward-cycle', 'uint', uintCV(intent.rewardCycle)]],
        intent.signer,
      );
    case 'pox5-setup-bond':
      return call(
        'setup-bond',
        '(bond-index uint) (target-rate uint) (stx-value-ratio uint) (min-ustx-ratio uint) (early-unlock-signers (buff 683)) (early-unlock-admin principal) (allowlist (list 1000 { staker: principal, max-sats: uint })))',
        [
          ['bond-index', 'uint', uintCV(intent.index)],
          ['target-rate', 'uint', uintCV(intent.targetRateBps)],
          ['stx-value-ratio', 'uint', uintCV(intent.stxValueRatio)],
          ['min-ustx-ratio', 'uint', uintCV(intent.minUstxRatio)],
          ['early-unlock-signers', '(buff 683)', bufferCV(new Uint8Array(33))],
          ['early-unlock-admin', 'principal', principalCV(intent.admin)],
          [
            'allowlist',
            '(list 1000 { staker: principal, max-sats: uint })',
            listCV(
              intent.allowlist.map((a) => tupleCV({ staker: principalCV(a.staker), 'max-sats': uintCV(a.maxSats) })),
            ),
          ],
        ],
      );
    case 'pox5-register-bond': {
      const { lockup } = intent;
      const proof =
        lockup.type === 'l2'
          ? responseErrorCV(uintCV(lockup.sats))
          : responseOkCV(
              tupleCV({
                outputs: listCV(
                  lockup.outputs.map((o) =>
                    tupleCV({
                      amount: uintCV(o.sats),
                      'output-index': uintCV(o.outputIndex),
                      tx: bufferCV(Buffer.from(o.txid, 'hex')),
                    }),
                  ),
                ),
                'unlock-bytes': bufferCV(new Uint8Array(0)),
              }),
            );
      return call(
        'register-for-bond',
        '(bond-index uint) (signer-manager <signer-manager-trait>) (amount-ustx uint) (btc-lockup (response { outputs: (list 10 { ... }), unlock-bytes: (buff 683) } uint)) (signer-calldata (optional (buff 500)))',
        [
          ['bond-index', 'uint', uintCV(intent.index)],
          ['signer-manager', TRAIT, contractCV(intent.signer)],
          ['amount-ustx', 'uint', uintCV(intent.ustx)],
          ['btc-lockup', '(response { outputs, unlock-bytes } uint)', proof],
          ['signer-calldata', '(optional (buff 500))', noneCV()],
        ],
      );
    }
    case 'pox5-early-exit':
      return call('announce-l1-early-exit', '(staker principal) (old-signer-manager <signer-manager-trait>)', [
        ['staker', 'principal', principalCV(intent.staker)],
        ['old-signer-manager', TRAIT, contractCV(intent.signer)],
      ]);
    case 'pox5-unstake-sbtc':
      return call('unstake-sbtc', '(signer-manager <signer-manager-trait>) (amount-to-withdrawal-sats uint)', [
        ['signer-manager', TRAIT, contractCV(intent.signer)],
        ['amount-to-withdrawal-sats', 'uint', uintCV(intent.sats)],
      ]);
    case 'pox5-pause-rewards':
      return call('pause-rewards', '', []);
  }
}
