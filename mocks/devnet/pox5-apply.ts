import type { Ledger, Outcome } from './ledger.ts';
import { announceEarlyExit, registerForBond, setupBond, unstakeSbtc } from './pox5-bonds.ts';
import { claim } from './pox5-claim.ts';
import { ERR, ok, principal, print, refused, u, type At } from './pox5-clarity.ts';
import type { Pox5Intent } from './pox5-intents.ts';
import { MAX_NUM_CYCLES, cycleOf, isPreparePhase, unlockHeightOf } from './pox5.ts';
import { bondUnlockHeight, type StxPosition } from './staking-book.ts';
import type { SignedTx } from './transactions.ts';

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
    case 'pox5-setup-bond':
      return setupBond(ledger, tx, intent, at);
    case 'pox5-register-bond':
      // Locked by pox-5 until the bond's unlock height, never in the STX balance's lock the API shows.
      return registerForBond(ledger, tx, intent, at, (amount, unlockBurnHeight) =>
        Object.assign(account, { bonded: amount, bondUnlockHeight: unlockBurnHeight }),
      );
    case 'pox5-early-exit':
      return announceEarlyExit(ledger, tx, intent, at);
    case 'pox5-unstake-sbtc':
      return unstakeSbtc(ledger, tx, intent, at);
  }
}
