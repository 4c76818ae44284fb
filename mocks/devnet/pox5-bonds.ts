import { tupleCV, stringAsciiCV } from '@stacks/transactions';
import type { AssetEvent, Ledger, Outcome } from './ledger.ts';
import { ERR, ok, principal, print, refused, u, type At } from './pox5-clarity.ts';
import type { Pox5Intent } from './pox5-intents.ts';
import { BOND_GAP_CYCLES, POX5_CONTRACT, SBTC, bondFirstCycle, cycleStart, isPreparePhase } from './pox5.ts';
import { bondStartHeight, bondUnlockCycle, bondUnlockHeight } from './staking-book.ts';
import type { SignedTx } from './transactions.ts';

type Call<K extends Pox5Intent['kind']> = Extract<Pox5Intent, { kind: K }>;

/** `setup-bond`, by the bond admin, within the two cycles before the bond period opens. */
export function setupBond(ledger: Ledger, tx: SignedTx, intent: Call<'pox5-setup-bond'>, at: At): Outcome {
  const book = ledger.staking;
  const caller = tx.sender;
  const lockAt = { txId: tx.txId, height: at.height, burnHeight: at.burnHeight };
  if (caller !== book.admin) return refused(ERR.unauthorized);
  const start = bondStartHeight(intent);
  if (at.burnHeight < cycleStart(bondFirstCycle(intent.index) - BOND_GAP_CYCLES)) return refused(ERR.setupTooSoon);
  if (at.burnHeight >= start) return refused(ERR.setupTooLate);
  if (book.bonds.has(intent.index)) return refused(ERR.bondExists);
  book.bonds.set(intent.index, {
    index: intent.index,
    targetRateBps: intent.targetRateBps,
    stxValueRatio: intent.stxValueRatio,
    minUstxRatio: intent.minUstxRatio,
    allowlist: new Map(intent.allowlist.map((a) => [a.staker, a.maxSats])),
    admin: intent.admin,
    created: lockAt,
    paidOut: 0n,
  });
  const unlockCycle = bondUnlockCycle(intent);
  return ok([
    print('setup-bond', {
      'bond-index': u(intent.index),
      'target-rate': u(intent.targetRateBps),
      'stx-value-ratio': u(intent.stxValueRatio),
      'min-ustx-ratio': u(intent.minUstxRatio),
      'first-reward-cycle': u(bondFirstCycle(intent.index)),
      'bond-start-height': u(start),
      'unlock-cycle': u(unlockCycle),
      'unlock-burn-height': u(bondUnlockHeight(intent)),
    }),
    ...intent.allowlist.map((a) =>
      print('add-to-allowlist', {
        staker: principal(a.staker),
        'max-sats': u(a.maxSats),
        'bond-index': u(intent.index),
      }),
    ),
  ]);
}

/**
 * `announce-l1-early-exit`, by the staker itself once its BTC left the lockup early: pox-5 counts its BTC no more,
 * and its STX stay locked to the bond's end. Once per position, never in a prepare phase, for a lockup on Bitcoin.
 */
export function announceEarlyExit(ledger: Ledger, tx: SignedTx, intent: Call<'pox5-early-exit'>, at: At): Outcome {
  const book = ledger.staking;
  const position = book.bondPositions.get(intent.staker);
  if (!position || at.burnHeight >= bondUnlockHeight({ index: position.bondIndex }))
    return refused(ERR.notBondParticipant);
  if (isPreparePhase(at.burnHeight)) return refused(ERR.stakeInPreparePhase);
  if (tx.sender !== intent.staker) return refused(ERR.unauthorized);
  if (position.type !== 'l1') return refused(ERR.cannotAnnounceEarlyExit);
  if (position.signer !== intent.signer) return refused(ERR.invalidOldSigner);
  if (position.earlyExit) return refused(ERR.earlyExitAlreadyAnnounced);
  position.earlyExit = true;
  return ok([
    print('announce-l1-early-exit', {
      staker: principal(intent.staker),
      'bond-index': u(position.bondIndex),
      'old-signer-manager': principal(intent.signer),
    }),
  ]);
}

/** `unstake-sbtc`: a bond participant takes back some or all of its sBTC; all of it is an early exit. */
export function unstakeSbtc(ledger: Ledger, tx: SignedTx, intent: Call<'pox5-unstake-sbtc'>, at: At): Outcome {
  const staker = tx.sender;
  const bonded = ledger.staking.bondPositions.get(staker);
  const inBond = bonded !== undefined && at.burnHeight < bondUnlockHeight({ index: bonded.bondIndex });
  if (!bonded || !inBond) return refused(ERR.notBondParticipant);
  if (bonded.signer !== intent.signer) return refused(ERR.invalidOldSigner);
  if (bonded.type !== 'l2') return refused(ERR.cannotUnstakeSbtc);
  if (intent.sats > bonded.sats) return refused(ERR.invalidUnstakeSbtcAmount);
  bonded.sats -= intent.sats;
  if (bonded.sats === 0n) bonded.earlyExit = true;
  ledger.moveFt(SBTC.assetIdentifier, POX5_CONTRACT, staker, intent.sats);
  return ok(
    [
      print('unstake-sbtc', {
        staker: principal(staker),
        signer: principal(bonded.signer),
        'bond-index': u(bonded.bondIndex),
        'new-amount-sats': u(bonded.sats),
      }),
    ],
    [
      {
        type: 'ft_transfer',
        asset: SBTC.assetIdentifier,
        sender: POX5_CONTRACT,
        recipient: staker,
        amount: intent.sats,
      },
    ],
  );
}

export function registerForBond(
  ledger: Ledger,
  tx: SignedTx,
  intent: Call<'pox5-register-bond'>,
  at: At,
  bondStx: (amount: bigint, unlockBurnHeight: number) => void,
): Outcome {
  const book = ledger.staking;
  const staker = tx.sender;
  const sats =
    intent.lockup.type === 'l2' ? intent.lockup.sats : intent.lockup.outputs.reduce((sum, o) => sum + o.sats, 0n);
  const bond = book.bonds.get(intent.index);
  if (intent.lockup.type === 'l2' && ledger.ftBalance(staker, SBTC.assetIdentifier) < sats) return refused(1);
  if (!bond) return refused(ERR.bondNotFound);
  const allowance = bond.allowlist.get(staker);
  if (allowance === undefined) return refused(ERR.notAllowlisted);
  const minUstx = (((BigInt(bond.stxValueRatio) * sats) / 100n) * BigInt(bond.minUstxRatio)) / 10_000n;
  if (intent.ustx < minUstx) return refused(ERR.insufficientStx);
  if (at.burnHeight >= bondStartHeight(bond)) return refused(ERR.bondAlreadyStarted);
  if (book.activeStake(staker, at.burnHeight) || ledger.account(staker).locked > 0n) return refused(ERR.alreadyStaked);
  if (sats > allowance) return refused(ERR.tooMuchSats);
  if (!book.signers.has(intent.signer)) return refused(ERR.signerNotFound);
  const existing = book.bondPositions.get(staker);
  if (existing && at.burnHeight < bondUnlockHeight({ index: existing.bondIndex }))
    return refused(ERR.alreadyRegistered);
  if (ledger.available(staker) < intent.ustx) return refused(ERR.insufficientStx);
  const events: AssetEvent[] = [];
  if (intent.lockup.type === 'l2') {
    ledger.moveFt(SBTC.assetIdentifier, staker, POX5_CONTRACT, sats);
    events.push({
      type: 'ft_transfer',
      asset: SBTC.assetIdentifier,
      sender: staker,
      recipient: POX5_CONTRACT,
      amount: sats,
    });
  }
  book.bondPositions.set(staker, {
    bondIndex: bond.index,
    staker,
    signer: intent.signer,
    type: intent.lockup.type,
    sats,
    ustx: intent.ustx,
    enrollment: { txId: tx.txId, height: at.height, burnHeight: at.burnHeight },
    l1Outputs:
      intent.lockup.type === 'l1' ? intent.lockup.outputs.map(({ txid, outputIndex }) => ({ txid, outputIndex })) : [],
    earlyExit: false,
    accrued: existing?.accrued ?? 0n,
    claimed: existing?.claimed ?? 0n,
  });
  bondStx(intent.ustx, bondUnlockHeight(bond));
  const log = print('register-for-bond', {
    signer: principal(intent.signer),
    staker: principal(staker),
    'amount-ustx': u(intent.ustx),
    'bond-index': u(bond.index),
    'first-reward-cycle': u(bondFirstCycle(bond.index)),
    'unlock-burn-height': u(bondUnlockHeight(bond)),
    'unlock-cycle': u(bondUnlockCycle(bond)),
    'sats-total': u(sats),
    'btc-lockup': tupleCV({ type: stringAsciiCV(intent.lockup.type) }),
  });
  return ok([log], events);
}
