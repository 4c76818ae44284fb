import {
  boolCV,
  type ClarityValue,
  contractPrincipalCV,
  cvToString,
  listCV,
  noneCV,
  principalCV,
  serializeCV,
  someCV,
  stringAsciiCV,
  tupleCV,
  uintCV,
} from '@stacks/transactions';
import type { AssetEvent, ContractLog, Ledger, Outcome } from './ledger.ts';
import type { Pox5Intent } from './pox5-intents.ts';
import {
  BOND_GAP_CYCLES,
  MAX_NUM_CYCLES,
  POX5_CONTRACT,
  SBTC,
  bondFirstCycle,
  cycleOf,
  cycleStart,
  isPreparePhase,
  unlockHeightOf,
} from './pox5.ts';
import { bondStartHeight, bondUnlockCycle, bondUnlockHeight, type StxPosition } from './staking-book.ts';
import type { SignedTx } from './transactions.ts';

/** pox-5.clar's error codes, as `(err uN)` results. */
const ERR = {
  unauthorized: 1,
  setupTooSoon: 2,
  setupTooLate: 3,
  bondExists: 4,
  bondNotFound: 7,
  insufficientStx: 8,
  alreadyRegistered: 9,
  tooMuchSats: 10,
  notAllowlisted: 11,
  alreadyStaked: 19,
  invalidNumCycles: 20,
  signerNotFound: 23,
  invalidStartBurnHeight: 24,
  notStaking: 27,
  unstakeInPreparePhase: 28,
  noClaimableRewards: 32,
  notBondParticipant: 34,
  cannotAnnounceEarlyExit: 35,
  invalidOldSigner: 36,
  invalidUnstakeSbtcAmount: 37,
  cannotUnstakeSbtc: 38,
  bondAlreadyStarted: 43,
  rewardsPaused: 53,
} as const;

const u = (value: bigint | number) => uintCV(value);
const principal = (id: string) => {
  const [address, name] = id.split('.') as [string, string | undefined];
  return name ? contractPrincipalCV(address, name) : principalCV(address);
};

/** A pox-5 `print`: a tuple whose `topic` names the event, the shape the API's pox-5 decoder reads. */
function print(topic: string, fields: Record<string, ClarityValue>, contract = POX5_CONTRACT): ContractLog {
  const value = tupleCV({ topic: stringAsciiCV(topic), ...fields });
  return { contract, hex: `0x${serializeCV(value)}`, repr: cvToString(value) };
}

const ok = (logs: ContractLog[], events: AssetEvent[] = []): Outcome => ({
  status: 'success',
  result: { hex: '0x0703', repr: '(ok true)' },
  events,
  logs,
});
const refused = (code: number): Outcome => ({
  status: 'abort_by_response',
  result: { hex: `0x0801${code.toString(16).padStart(32, '0')}`, repr: `(err u${code})` },
  events: [],
});

interface At {
  readonly height: number;
  readonly burnHeight: number;
}

/** Applies a pox-5 call to the ledger and its staking book, with pox-5.clar's checks in its order. */
export function applyPox5(ledger: Ledger, tx: SignedTx, intent: Pox5Intent, at: At): Outcome {
  const book = ledger.staking;
  const staker = tx.sender;
  const account = ledger.account(staker);
  const cycle = cycleOf(at.burnHeight);
  const lockAt = { txId: tx.txId, height: at.height, burnHeight: at.burnHeight };
  const setLock = (amount: bigint, unlockBurnHeight: number) =>
    Object.assign(account, {
      locked: amount,
      lockTxId: tx.txId,
      lockHeight: at.height,
      burnLockHeight: at.burnHeight,
      burnUnlockHeight: unlockBurnHeight,
    });
  const bonded = book.bondPositions.get(staker);
  const inBond = bonded !== undefined && at.burnHeight < bondUnlockHeight({ index: bonded.bondIndex });
  switch (intent.kind) {
    case 'pox5-stake': {
      if (!book.signers.has(intent.signer)) return refused(ERR.signerNotFound);
      if (cycleOf(intent.startBurnHeight) !== cycle) return refused(ERR.invalidStartBurnHeight);
      if (intent.cycles < 1 || intent.cycles > MAX_NUM_CYCLES) return refused(ERR.invalidNumCycles);
      if (book.activeStake(staker, at.burnHeight) || inBond || account.locked > 0n) return refused(ERR.alreadyStaked);
      if (ledger.available(staker) < intent.amount) return refused(ERR.insufficientStx);
      const previous = book.stx.get(staker);
      const first = cycle + 1;
      const position: StxPosition = {
        signer: intent.signer,
        amount: intent.amount,
        firstRewardCycle: first,
        unlockCycle: first + intent.cycles,
        unlockBurnHeight: unlockHeightOf(first + intent.cycles),
        cycles: new Map(Array.from({ length: intent.cycles }, (_, i) => [first + i, intent.amount])),
        lock: lockAt,
        accrued: previous?.accrued ?? 0n,
        claimed: previous?.claimed ?? 0n,
      };
      book.stx.set(staker, position);
      setLock(intent.amount, position.unlockBurnHeight);
      return ok([
        print('stake', {
          signer: principal(intent.signer),
          staker: principal(staker),
          'amount-ustx': u(intent.amount),
          'num-cycles': u(intent.cycles),
          'first-reward-cycle': u(first),
          'unlock-burn-height': u(position.unlockBurnHeight),
          'unlock-cycle': u(position.unlockCycle),
        }),
      ]);
    }
    case 'pox5-stake-update': {
      const position = book.activeStake(staker, at.burnHeight);
      if (!position) return refused(ERR.notStaking);
      if (position.signer !== intent.signer) return refused(ERR.invalidOldSigner);
      const unlockCycle = position.unlockCycle + intent.cyclesToExtend;
      const numCycles = unlockCycle - cycle - 1;
      if (numCycles < 1 || numCycles > MAX_NUM_CYCLES) return refused(ERR.invalidNumCycles);
      if (ledger.available(staker) < intent.amountIncrease) return refused(ERR.insufficientStx);
      const prevUnlockHeight = position.unlockBurnHeight;
      position.amount += intent.amountIncrease;
      for (let c = cycle + 1; c < unlockCycle; c++) position.cycles.set(c, position.amount);
      position.unlockCycle = unlockCycle;
      position.unlockBurnHeight = unlockHeightOf(unlockCycle);
      position.lock = lockAt;
      setLock(position.amount, position.unlockBurnHeight);
      return ok([
        print('stake-update', {
          staker: principal(staker),
          signer: principal(intent.signer),
          'old-signer': principal(intent.signer),
          'prev-unlock-height': u(prevUnlockHeight),
          'unlock-burn-height': u(position.unlockBurnHeight),
          'unlock-cycle': u(unlockCycle),
          'num-cycles': u(numCycles),
          'amount-ustx': u(position.amount),
          'amount-increase': u(intent.amountIncrease),
          'cycles-to-extend': u(intent.cyclesToExtend),
        }),
      ]);
    }
    case 'pox5-unstake': {
      const position = book.activeStake(staker, at.burnHeight);
      if (!position) return refused(ERR.notStaking);
      if (position.signer !== intent.signer) return refused(ERR.invalidOldSigner);
      if (isPreparePhase(at.burnHeight)) return refused(ERR.unstakeInPreparePhase);
      for (const c of [...position.cycles.keys()]) if (c > cycle) position.cycles.delete(c);
      position.unlockCycle = cycle + 1;
      position.unlockBurnHeight = unlockHeightOf(cycle + 1);
      position.lock = lockAt;
      setLock(position.amount, position.unlockBurnHeight);
      return ok([
        print('unstake', {
          staker: principal(staker),
          signer: principal(intent.signer),
          'amount-ustx': u(position.amount),
          'first-reward-cycle': u(position.firstRewardCycle),
          'unlock-cycle': u(position.unlockCycle),
          'unlock-burn-height': u(position.unlockBurnHeight),
        }),
      ]);
    }
    case 'pox5-claim':
      return claim(ledger, staker, intent.signer, intent.rewardCycle);
    case 'pox5-pause-rewards':
      if (staker !== book.admin) return refused(ERR.unauthorized);
      book.paused = true;
      return ok([print('pause-rewards', {})]);
    case 'pox5-setup-bond': {
      if (staker !== book.admin) return refused(ERR.unauthorized);
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
    case 'pox5-register-bond':
      return registerForBond(ledger, tx, intent, at, setLock);
    case 'pox5-early-exit': {
      const position = book.bondPositions.get(intent.staker);
      if (!position || at.burnHeight >= bondUnlockHeight({ index: position.bondIndex }))
        return refused(ERR.notBondParticipant);
      if (staker !== book.bonds.get(position.bondIndex)?.admin) return refused(ERR.unauthorized);
      if (position.type !== 'l1') return refused(ERR.cannotAnnounceEarlyExit);
      if (position.signer !== intent.signer) return refused(ERR.invalidOldSigner);
      position.earlyExit = true;
      return ok([
        print('announce-l1-early-exit', {
          staker: principal(intent.staker),
          'bond-index': u(position.bondIndex),
          'old-signer-manager': principal(intent.signer),
        }),
      ]);
    }
    case 'pox5-unstake-sbtc': {
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
  }
}

function registerForBond(
  ledger: Ledger,
  tx: SignedTx,
  intent: Extract<Pox5Intent, { kind: 'pox5-register-bond' }>,
  at: At,
  setLock: (amount: bigint, unlockBurnHeight: number) => void,
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
  setLock(intent.ustx, bondUnlockHeight(bond));
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

/**
 * A staker's claim through its signer manager: the manager pulls its pot from pox-5 (`claim-rewards`), pox-5
 * books the staker's share (`claim-staker-rewards-for-signer`, per position), and the manager pays it out in sBTC.
 */
function claim(ledger: Ledger, staker: string, signer: string, rewardCycle: number): Outcome {
  const book = ledger.staking;
  const stx = book.stx.get(staker);
  const bond = book.bondPositions.get(staker);
  const stxShare = stx && stx.signer === signer ? stx.accrued - stx.claimed : 0n;
  const bondShare = bond && bond.signer === signer ? bond.accrued - bond.claimed : 0n;
  const total = stxShare + bondShare;
  if (book.paused) return refused(ERR.rewardsPaused);
  if (total <= 0n) return refused(ERR.noClaimableRewards);
  const logs = [
    print('claim-rewards', {
      'signer-manager': principal(signer),
      'reward-cycle': u(rewardCycle),
      'stx-rewards': tupleCV({ earned: u(stxShare), 'rewards-per-token': u(0) }),
      'bond-rewards': listCV(
        bond && bondShare > 0n ? [tupleCV({ earned: u(bondShare), 'bond-index': u(bond.bondIndex) })] : [],
      ),
      'bond-totals': u(bondShare),
      'total-rewards': u(total),
    }),
  ];
  const booked = (bondIndex: number | null, amount: bigint) =>
    print('claim-staker-rewards-for-signer', {
      staker: principal(staker),
      'signer-manager': principal(signer),
      'reward-cycle': u(rewardCycle),
      'bond-index': bondIndex === null ? noneCV() : someCV(u(bondIndex)),
      'rewards-claimed': u(amount),
      'is-bond': boolCV(bondIndex !== null),
    });
  if (stx && stxShare > 0n) {
    stx.claimed += stxShare;
    logs.push(booked(null, stxShare));
  }
  if (bond && bondShare > 0n) {
    bond.claimed += bondShare;
    const record = book.bonds.get(bond.bondIndex);
    if (record) record.paidOut += bondShare;
    logs.push(booked(bond.bondIndex, bondShare));
  }
  ledger.moveFt(SBTC.assetIdentifier, POX5_CONTRACT, signer, total);
  ledger.moveFt(SBTC.assetIdentifier, signer, staker, total);
  return ok(logs, [
    { type: 'ft_transfer', asset: SBTC.assetIdentifier, sender: POX5_CONTRACT, recipient: signer, amount: total },
    { type: 'ft_transfer', asset: SBTC.assetIdentifier, sender: signer, recipient: staker, amount: total },
  ]);
}
