import { describe, expect, it } from 'vitest';
import {
  decodeBondSchedule,
  decodeDataVarBool,
  decodePoxClock,
  decodeStakingSummary,
} from '../../src/chain/decode-staking.ts';
import { alertFacts } from '../../src/domain/alerts/alert-facts.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { judge } from '../../src/domain/alerts/alert-judge.ts';
import { readAlertFacts } from '../../src/domain/alerts/alert-facts-read.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { describeActivity, describeParties } from '../../src/domain/text/activity-text.ts';
import { formatToken } from '../../src/domain/text/asset-text.ts';
import { deviceWords, NO_DEVICE_NAMES } from '../../src/domain/alerts/device-words.ts';
import { isPositionCall, stakingNews } from '../../src/domain/alerts/staking-news.ts';
import { stakingTitle } from '../../src/domain/text/staking-text.ts';
import { stakingView } from '../../src/domain/text/staking-view.ts';
import {
  bondPhase,
  formatSbtc,
  isStakingNow,
  type BondStatus,
  type StakingPosition,
} from '../../src/domain/state/staking.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { newLedger, record } from '../../src/domain/alerts/alert-ledger.ts';
import { judgeStaking } from '../../src/notify/staking-alerts.ts';

const STAKER = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const CLOCK = { cycle: 142, startBurnHeight: 110, length: 10 };
const none = { accrued: 0n, claimed: 0n, claimable: 0n };
const position = (change: Partial<StakingPosition> = {}): StakingPosition => ({
  staked: 0n,
  rewards: none,
  bonds: [],
  clock: CLOCK,
  burnHeight: 112,
  locked: 0n,
  lockBurnHeight: null,
  unlockBurnHeight: null,
  ...change,
});
const staked = position({
  staked: 60_000_000_000n,
  locked: 60_000_000_000n,
  lockBurnHeight: 112,
  unlockBurnHeight: 145,
});

/** The address's own mined call of `functionName` on `contractId` (fee paid, nothing else moved). */
const poxCallOf = (contractId: string, functionName: string, status: Activity['status'] = 'success'): Activity => ({
  txId: `0x${'1'.repeat(64)}`,
  status,
  kind: 'contract_call',
  counterparty: null,
  stxNet: -1000n,
  fee: 1000n,
  memo: null,
  contractCall: { contractId, functionName },
  blockHeight: 30,
  time: 1,
});

const titles = (before: StakingPosition, after: StakingPosition, burnHeight: number | null = 120, min = 0n) =>
  stakingNews(before, after, burnHeight, min).map((news) => stakingTitle(news.subject, news.amount));

describe('staking news, in plain words', () => {
  it('tells a stake with the cycle it starts earning in', () => {
    expect(titles(position(), staked)).toEqual(['Staked 60,000.00 STX · from cycle 143']);
  });

  it('tells an unstake with the cycle its STX unlock in and about when, and an update with its new end', () => {
    const unstaked = { ...staked, lockBurnHeight: 118, unlockBurnHeight: 125 };
    expect(titles(staked, unstaked)).toEqual(['Unstake scheduled: 60,000.00 STX unlock at cycle 143, in about 1 hour']);
    const raised = { ...staked, staked: 70_000_000_000n, lockBurnHeight: 115, unlockBurnHeight: 155 };
    expect(titles(staked, raised)).toEqual(['Stake updated: 70,000.00 STX · until cycle 146']);
  });

  it('tells an unlock at its burn height, and nothing when the lock vanished before it (a re-org took the stake back)', () => {
    expect(titles(staked, position(), 145)).toEqual(['Unlocked 60,000.00 STX']);
    expect(titles(staked, position(), 130)).toEqual([]);
    expect(titles(staked, position(), null)).toEqual([]);
  });

  it('tells rewards paused once, to a staker read while they were not, with what is left to claim', () => {
    const earning = {
      ...staked,
      rewards: { accrued: 120_000n, claimed: 0n, claimable: 120_000n },
      rewardsPaused: false,
    };
    const paused = { ...earning, rewardsPaused: true };
    expect(titles(earning, paused)).toEqual(['Staking rewards paused: 0.00120000 sBTC claimable cannot be claimed']);
    expect(titles({ ...staked, rewardsPaused: false }, { ...staked, rewardsPaused: true })).toEqual([
      'Staking rewards paused',
    ]);
    // Already paused, never read (not staking then, or a snapshot from before it was read): nothing is news.
    expect(titles(paused, paused)).toEqual([]);
    expect(titles({ ...earning, rewardsPaused: null }, paused)).toEqual([]);
    expect(titles(staked, { ...staked, rewardsPaused: true })).toEqual([]);
  });

  it('tells an unlock and a new stake when no read met the STX free between the two locks', () => {
    const again = position({
      staked: 20_000_000_000n,
      locked: 20_000_000_000n,
      lockBurnHeight: 146,
      unlockBurnHeight: 165,
      burnHeight: 147,
    });
    expect(titles(staked, again, 147)).toEqual(['Staked 20,000.00 STX · from cycle 146', 'Unlocked 60,000.00 STX']);
  });

  it('tells a bond position that matured or exited early, once, and not one first read already ended', () => {
    const bond = (status: 'enrolled' | 'running' | 'early_exit' | 'unlocked', bondIndex = 1) => ({
      bondIndex,
      status,
      lockedSats: 50_000_000n,
      lockedUstx: 20_000_000_000n,
      rewards: none,
    });
    const holding = (...bonds: ReturnType<typeof bond>[]) => position({ bonds });
    expect(titles(holding(bond('running')), holding(bond('unlocked')))).toEqual([
      'Bond 1 matured: 20,000.00 STX unlocked',
    ]);
    expect(titles(holding(bond('enrolled', 3)), holding(bond('early_exit', 3)))).toEqual([
      'Bond 3 exited early: 20,000.00 STX bonded',
    ]);
    expect(titles(holding(bond('enrolled')), holding(bond('running')))).toEqual([]);
    // One that left early keeps its STX locked to the bond's end: told again when they unlock, and only then.
    expect(titles(holding(bond('early_exit', 3)), holding(bond('early_exit', 3)))).toEqual([]);
    expect(titles(holding(bond('early_exit', 3)), holding(bond('unlocked', 3)))).toEqual([
      'Bond 3 matured: 20,000.00 STX unlocked',
    ]);
    expect(titles(holding(), holding(bond('unlocked')))).toEqual([]);
    expect(titles(holding(bond('unlocked')), holding(bond('unlocked')))).toEqual([]);
  });

  it('tells claimable rewards once per claim round, over the threshold only', () => {
    const earned = position({ rewards: { accrued: 120_000n, claimed: 0n, claimable: 120_000n } });
    expect(titles(position(), earned)).toEqual(['sBTC rewards claimable: 0.00120000 sBTC']);
    const more = position({ rewards: { accrued: 240_000n, claimed: 0n, claimable: 240_000n } });
    // Still claimable, more of it: the same round, no new message every cycle.
    expect(stakingNews(earned, more, 120, 0n)).toEqual([]);
    expect(titles(position(), earned, 120, 200_000n)).toEqual([]);
    expect(titles(earned, more, 120, 200_000n)).toEqual(['sBTC rewards claimable: 0.00240000 sBTC']);
    // The claim itself is told as the staker's transaction; the next round starts from it.
    const claimed = position({ rewards: { accrued: 240_000n, claimed: 240_000n, claimable: 0n } });
    expect(titles(more, claimed)).toEqual([]);
    const next = position({ rewards: { accrued: 360_000n, claimed: 240_000n, claimable: 120_000n } });
    expect(titles(claimed, next)).toEqual(['sBTC rewards claimable: 0.00120000 sBTC']);
  });

  it('never calls rewards claimable while claims are paused: the pause alert says what is waiting', () => {
    const earning = position({ rewardsPaused: false });
    const paused = position({ rewardsPaused: true, rewards: { accrued: 120_000n, claimed: 0n, claimable: 120_000n } });
    expect(titles(earning, paused)).toEqual(['Staking rewards paused: 0.00120000 sBTC claimable cannot be claimed']);
    const more = position({ rewardsPaused: true, rewards: { accrued: 240_000n, claimed: 0n, claimable: 240_000n } });
    expect(titles(paused, more)).toEqual([]);
    // Claims open again (the devnet can; pox-5 cannot): what waits is claimable now, told once.
    const open = position({ rewardsPaused: false, rewards: { accrued: 240_000n, claimed: 0n, claimable: 240_000n } });
    expect(titles(more, open)).toEqual(['sBTC rewards claimable: 0.00240000 sBTC']);
  });

  it('names each change by its facts, so the same change read again is the same subject', () => {
    const once = stakingNews(position(), staked, 120, 0n);
    expect(stakingNews(position(), { ...staked, burnHeight: 119 }, 121, 0n)).toEqual(once);
  });
});

/** An alert's words as a device puts them, from the facts it was sent. */
function wordsOnDevice(item: AlertItem) {
  const read = readAlertFacts(JSON.parse(JSON.stringify(alertFacts(item))));
  if (!read.ok) throw new Error(read.error);
  return deviceWords({ ...item, title: '', body: '' }, read.value, NO_DEVICE_NAMES);
}

describe('a staking rewards claim', () => {
  const SBTC = 'ST1F7QA2MDF17S807EPA36TSS8AMEFY4KA9TVGWXT.sbtc-token::sbtc-token';
  const SIGNER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG.pox5-signer';
  const claim = {
    txId: `0x${'3'.repeat(64)}`,
    status: 'success' as const,
    kind: 'contract_call' as const,
    counterparty: SIGNER,
    stxNet: -3000n,
    fee: 3000n,
    memo: null,
    contractCall: { contractId: SIGNER, functionName: 'claim-rewards' },
    blockHeight: 40,
    time: 1,
    sender: STAKER,
    movements: [
      {
        type: 'ft' as const,
        assetIdentifier: SBTC,
        kind: 'transfer' as const,
        sender: SIGNER,
        recipient: STAKER,
        amount: 120_000n,
      },
    ],
  };
  it('is told, though the address never held sBTC: it asked for it by signing the claim', () => {
    const verdict = judge(claim, 'confirmed', DEFAULT_RULES, {
      principal: STAKER,
      knownAssets: new Set(),
      alertedBefore: true,
    });
    expect(verdict).toEqual({ alert: true });
  });
  it('reads "Claimed" with the sBTC it paid', () => {
    const item: AlertItem = {
      id: `testnet:${STAKER}:${claim.txId}`,
      network: 'testnet',
      principal: STAKER,
      subject: claim.txId,
      phase: 'confirmed',
      activity: claim,
      amount: null,
      at: 1,
      catchUp: false,
    };
    const read = readAlertFacts(JSON.parse(JSON.stringify(alertFacts(item))));
    if (!read.ok) throw new Error(read.error);
    expect(deviceWords({ ...item, title: '', body: '' }, read.value, NO_DEVICE_NAMES).title).toBe(
      'Claimed 0.00120000 sBTC · fee 0.003 STX',
    );
  });
  it('says where the rewards came from in plain words, never the contract function', () => {
    const item: AlertItem = {
      id: `testnet:${STAKER}:${claim.txId}`,
      network: 'testnet',
      principal: STAKER,
      subject: claim.txId,
      phase: 'confirmed',
      activity: claim,
      amount: null,
      at: 1,
      catchUp: false,
    };
    const words = wordsOnDevice(item);
    expect(words.body.split('\n').slice(1)).toEqual(['Staking rewards from ST2CY5…K9AG.pox5-signer']);
    expect(describeParties(claim, STAKER)).toBe('Staking rewards from ST2CY5…K9AG.pox5-signer');
    expect(describeActivity(claim, STAKER)).toBe('Claimed 0.00120000 sBTC');
  });
  it('is a reward claim while pending, failed or skipped, not a call of pox5-signer.claim-rewards', () => {
    const pending = { ...claim, status: 'pending' as const, blockHeight: null, movements: null };
    expect(describeActivity(pending, STAKER)).toBe('Claiming rewards — pending');
    const failed = { ...claim, status: 'failed' as const, statusDetail: 'abort_by_response', movements: [] };
    expect(describeActivity(failed, STAKER)).toBe('Reward claim failed');
    const item = (activity: typeof failed, phase: AlertItem['phase']): AlertItem => ({
      id: `testnet:${STAKER}:${claim.txId}`,
      network: 'testnet',
      principal: STAKER,
      subject: claim.txId,
      phase,
      activity,
      amount: null,
      at: 1,
      catchUp: false,
    });
    const title = (activity: typeof failed, phase: AlertItem['phase']) => wordsOnDevice(item(activity, phase)).title;
    expect(title(failed, 'failed')).toBe('Reward claim failed · fee 0.003 STX');
    expect(title({ ...failed, statusDetail: 'problematic_skipped' }, 'failed')).toBe(
      'Reward claim skipped as problematic · fee 0.003 STX',
    );
    expect(title(pending as unknown as typeof failed, 'pending')).toBe('Claiming rewards — pending');
  });
});

describe('sBTC as a first-class asset', () => {
  it('always shows its eight decimals and its symbol, known without the node’s metadata', () => {
    expect(formatSbtc(120_000n)).toBe('0.00120000 sBTC');
    expect(formatSbtc(2_100_000_000n)).toBe('21.00000000 sBTC');
    expect(formatToken(120_000n, 'ST1F7QA2MDF17S807EPA36TSS8AMEFY4KA9TVGWXT.sbtc-token::sbtc-token', undefined)).toBe(
      '0.00120000 sBTC',
    );
    expect(formatToken(5n, 'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token', undefined)).toBe(
      '0.00000005 sBTC',
    );
  });
});

describe('staking alerts pushed by the relay', () => {
  it('read the same on the device, from the subject and amount the facts carry', () => {
    const item: AlertItem = {
      id: `testnet:${STAKER}:claimable:0`,
      network: 'testnet',
      principal: STAKER,
      subject: 'claimable:0',
      phase: 'locked',
      activity: null,
      amount: 120_000n,
      at: 1_700_000_000_000,
      catchUp: false,
    };
    const read = readAlertFacts(JSON.parse(JSON.stringify(alertFacts(item))));
    if (!read.ok) throw new Error(read.error);
    const alert = { ...item, title: 'relay words', body: 'relay body' };
    expect(deviceWords(alert, read.value, NO_DEVICE_NAMES).title).toBe('sBTC rewards claimable: 0.00120000 sBTC');
  });
});

describe('a transaction the miners skipped (problematic_skipped)', () => {
  it('is named as such on the device a relay pushed it to, not only as failed', () => {
    const item: AlertItem = {
      id: `testnet:${STAKER}:0x${'2'.repeat(64)}`,
      network: 'testnet',
      principal: STAKER,
      subject: `0x${'2'.repeat(64)}`,
      phase: 'failed',
      activity: {
        txId: `0x${'2'.repeat(64)}`,
        status: 'failed',
        statusDetail: 'problematic_skipped',
        kind: 'contract_call',
        counterparty: null,
        stxNet: -3000n,
        fee: 3000n,
        memo: null,
        contractCall: { contractId: 'ST000000000000000000002AMW42H.pox-5', functionName: 'stake' },
        blockHeight: 40,
        time: 1,
        sender: STAKER,
      },
      amount: null,
      at: 1_700_000_000_000,
      catchUp: false,
    };
    const read = readAlertFacts(JSON.parse(JSON.stringify(alertFacts(item))));
    if (!read.ok) throw new Error(read.error);
    const words = deviceWords({ ...item, title: 'relay words', body: 'relay body' }, read.value, NO_DEVICE_NAMES);
    expect(words.title).toBe('Stake skipped as problematic · fee 0.003 STX');
    expect(words.body).toContain('Miners skipped it as problematic');
  });
});

describe('what the node says of staking', () => {
  it('reads the API’s principal staking summary and refuses claimable above accrued', () => {
    const body = {
      stx: { locked: '60000000000', rewards: { btc: { accrued: '5', claimed: '2', claimable: '3' } } },
      bonds: {
        count: 0,
        locked: { btc: '0', stx: '0' },
        rewards: { btc: { accrued: '0', claimed: '0', claimable: '0' } },
      },
    };
    expect(decodeStakingSummary(body)).toEqual({
      staked: 60_000_000_000n,
      rewards: { accrued: 5n, claimed: 2n, claimable: 3n },
      bondCount: 0,
    });
    const wrong = { ...body, stx: { ...body.stx, rewards: { btc: { accrued: '1', claimed: '0', claimable: '3' } } } };
    expect(() => decodeStakingSummary(wrong)).toThrow('$.stx.rewards.btc.claimable: expected at most accrued (1)');
  });

  it('reads the cycle clock from /v2/pox', () => {
    const pox = {
      contract_id: 'SP000000000000000000002Q6VF78.pox-5',
      reward_cycle_length: 2100,
      current_burnchain_block_height: 960_300,
      current_cycle: { id: 141 },
      next_cycle: { reward_phase_start_block_height: 962_330 },
    };
    expect(decodePoxClock(pox)).toEqual({
      cycle: 141,
      startBurnHeight: 960_230,
      length: 2100,
      burnHeight: 960_300,
      contractId: 'SP000000000000000000002Q6VF78.pox-5',
    });
  });

  it("reads pox-5's rewards-paused as the node's data_var route serializes a Clarity bool", () => {
    expect(decodeDataVarBool({ data: '0x03' })).toBe(true);
    expect(decodeDataVarBool({ data: '0x04', proof: '0x12' })).toBe(false);
    expect(() => decodeDataVarBool({ data: '0x0100000000000000000000000000000001' })).toThrow(
      '$.data: expected a Clarity bool (0x03 or 0x04)',
    );
    expect(() => decodeDataVarBool('Data var not found')).toThrow('$');
  });
});

describe('the staking card', () => {
  it('says what is staked until which cycle, a scheduled unstake, rewards and bonds', () => {
    const view = stakingView(
      {
        ...staked,
        // The balance's lock is the staked STX only: the API never puts a bond's STX into it.
        locked: 60_000_000_000n,
        rewards: { accrued: 240_000n, claimed: 120_000n, claimable: 120_000n },
        bonds: [
          { bondIndex: 1, status: 'running', lockedSats: 50_000_000n, lockedUstx: 10_000_000_000n, rewards: none },
        ],
      },
      [poxCallOf('ST000000000000000000002AMW42H.pox-5', 'unstake')],
      140,
    );
    expect(view).toEqual({
      staked: { amount: '60,000.00 STX', until: 'until cycle 145 · unlocks in about 50 minutes (Bitcoin block 145)' },
      unstake: 'Unstake scheduled: 60,000.00 STX unlock in cycle 145',
      rewards: { accrued: '0.00240000 sBTC', claimed: '0.00120000 sBTC', claimable: '0.00120000 sBTC' },
      paused: null,
      bonds: [{ name: 'Bond 1', status: 'running', held: '0.50000000 BTC and 10,000.00 STX locked' }],
    });
    expect(stakingView({ ...staked, rewardsPaused: true }, [], 140)?.paused).toBe(
      'Rewards paused on the chain: they go on adding up, but a claim is refused until the pause ends',
    );
    expect(stakingView(position(), [], 140)).toBeNull();
  });

  it('says a bond-only holder\u2019s STX on the bond\u2019s line, as the API shows them (no balance lock)', () => {
    const bondOnly = position({
      bonds: [{ bondIndex: 1, status: 'running', lockedSats: 50_000_000n, lockedUstx: 20_000_000_000n, rewards: none }],
    });
    const view = stakingView(bondOnly, [], 140);
    expect(view?.staked).toBeNull();
    expect(view?.bonds).toEqual([
      { name: 'Bond 1', status: 'running', held: '0.50000000 BTC and 20,000.00 STX locked' },
    ]);
  });

  it('tells where a bond position stands from its bond\u2019s schedule (the API stores enrolled, early_exit, rolled_over)', () => {
    const schedule = decodeBondSchedule({
      index: 3,
      status: 'active',
      schedule: { activation: { bitcoin_height: 200, pox_cycle: 10 }, unlock: { bitcoin_height: 450, pox_cycle: 22 } },
    });
    expect(schedule).toEqual({ opensBurnHeight: 200, unlocksBurnHeight: 450 });
    const at = (stored: BondStatus, burnHeight: number) => bondPhase(stored, schedule, burnHeight);
    expect([199, 200, 449, 450].map((height) => at('enrolled', height))).toEqual([
      'enrolled',
      'running',
      'running',
      'unlocked',
    ]);
    expect([199, 449, 450, 900].map((height) => at('early_exit', height))).toEqual([
      'early_exit',
      'early_exit',
      'unlocked',
      'unlocked',
    ]);
    // Moved on to a stake or a newer bond: it holds nothing, whatever the height.
    expect([199, 450].map((height) => at('rolled_over', height))).toEqual(['rolled_over', 'rolled_over']);
    expect(() =>
      decodeBondSchedule({ schedule: { activation: { bitcoin_height: 500 }, unlock: { bitcoin_height: 450 } } }),
    ).toThrow(/unlock\.bitcoin_height/);
  });

  it('says a bond that left early still locks its STX to the bond\u2019s end, its BTC gone (pox-5)', () => {
    const exited = position({
      bonds: [{ bondIndex: 4, status: 'early_exit', lockedSats: 0n, lockedUstx: 2_000_000_000n, rewards: none }],
    });
    expect(stakingView(exited, [], 140)?.bonds).toEqual([
      { name: 'Bond 4', status: 'exited early', held: '2,000.00 STX still locked until the bond ends' },
    ]);
  });

  it('says what an ended bond held as the API lists it (still locked), and marks the row only while STX are staked or a bond runs', () => {
    const matured = position({
      bonds: [{ bondIndex: 2, status: 'unlocked', lockedSats: 10_000_000n, lockedUstx: 2_000_000_000n, rewards: none }],
    });
    expect(stakingView(matured, [], 140)?.bonds).toEqual([
      { name: 'Bond 2', status: 'matured, unlocked', held: '0.10000000 BTC and 2,000.00 STX released' },
    ]);
    expect(stakingView(matured, [], 140)?.staked).toBeNull();
    expect(isStakingNow(matured)).toBe(false);
    expect(isStakingNow(staked)).toBe(true);
    const running = matured.bonds.map((bond) => ({ ...bond, status: 'running' as const }));
    expect(isStakingNow(position({ bonds: running }))).toBe(true);
    expect(isStakingNow(undefined)).toBe(false);
  });

  it("reads a scheduled unstake from pox-5's own contract only, never a lookalike's", () => {
    const unstake = (contractId: string) => poxCallOf(contractId, 'unstake');
    expect(stakingView(staked, [unstake('ST000000000000000000002AMW42H.pox-5')], 140)?.unstake).not.toBeNull();
    expect(stakingView(staked, [unstake('ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG.pox-5')], 140)?.unstake).toBeNull();
  });
});

describe('a call whose staking alert tells it (one act, one notification)', () => {
  it("is pox-5's stake, stake-update or unstake, pending or done, at the boot address only", () => {
    for (const fn of ['stake', 'stake-update', 'unstake']) {
      expect(isPositionCall(poxCallOf('ST000000000000000000002AMW42H.pox-5', fn))).toBe(true);
      expect(isPositionCall(poxCallOf('SP000000000000000000002Q6VF78.pox-5', fn, 'pending'))).toBe(true);
      expect(isPositionCall(poxCallOf('ST000000000000000000002AMW42H.pox-5', fn, 'failed'))).toBe(false);
    }
    expect(isPositionCall(poxCallOf('ST000000000000000000002AMW42H.pox-5', 'claim-rewards'))).toBe(false);
    expect(isPositionCall(poxCallOf('ST000000000000000000002AMW42H.pox-4', 'stack-stx'))).toBe(false);
    // A lookalike deployed by anyone is an ordinary contract: its call is told on its own.
    expect(isPositionCall(poxCallOf('ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG.pox-5', 'stake'))).toBe(false);
  });
});

const stakedTo125 = position({
  staked: 60_000_000_000n,
  locked: 60_000_000_000n,
  lockBurnHeight: 112,
  unlockBurnHeight: 125,
});
/** A ledger something was recorded in: an address past its first sync. */
const known = record(newLedger(STAKER, 'testnet', 0), '0xabc', 'confirmed', 10, 'history');

const judged = (
  start = known,
  before: StakingPosition | null,
  after: StakingPosition,
  burnHeight = after.burnHeight,
) => {
  const told: string[] = [];
  const ledger = judgeStaking({ before, after, burnHeight }, start, DEFAULT_RULES, (subject) => told.push(subject));
  return { ledger, told };
};

describe('staking judged against the position the alert ledger last judged', () => {
  it('tells the unlock from the ledger’s position when the snapshot’s is older than the stake it told', () => {
    const stake = judged(known, position(), stakedTo125);
    expect(stake.told).toEqual(['stake:143:143:125']);
    // The snapshot was not written before the app closed: its position is the one from before the stake.
    const unlock = judged(stake.ledger, position(), position({ burnHeight: 125 }));
    expect(unlock.told).toEqual(['unlock:125']);
  });

  it('leaves the ledger as it is for a read that differs only in the burn height it was read at', () => {
    const { ledger } = judged(known, position(), stakedTo125);
    const again = judged(ledger, stakedTo125, { ...stakedTo125, burnHeight: 118 });
    expect(again.ledger).toBe(ledger);
    expect(again.told).toEqual([]);
  });

  it('leaves a ledger nothing was recorded in as it is when there is no news, so a first sync still baselines', () => {
    const fresh = newLedger(STAKER, 'testnet', 0);
    expect(judged(fresh, null, stakedTo125).ledger).toBe(fresh);
    expect(judged(fresh, stakedTo125, { ...stakedTo125, burnHeight: 118 }).ledger).toBe(fresh);
  });
});
