import type { DevnetChain } from './chain.ts';
import { SIGNER_SET_MIN_USTX, bondFirstCycle, cycleOf } from './pox5.ts';
import {
  bondStartHeight,
  bondUnlockCycle,
  bondUnlockHeight,
  type Bond,
  type BondPosition,
  type ChainPosition,
  type SignerRecord,
} from './staking-book.ts';

/** The API 9.x staking shapes (src/api/schemas/v3/entities: principal-bond-positions, bonds, staking-*). */
const rewards = (accrued: bigint, claimed: bigint) => ({
  btc: { accrued: accrued.toString(), claimed: claimed.toString(), claimable: (accrued - claimed).toString() },
});

const burnHeight = (chain: DevnetChain) => chain.tip.burnHeight;

/** Where a record's transaction was mined; a genesis record sits at the first block. */
function transactionOf(chain: DevnetChain, at: ChainPosition) {
  const entry = chain.tx(at.txId);
  const confirmed = entry?.state.kind === 'confirmed' ? entry.state : null;
  const block = confirmed?.block ?? chain.block(at.height) ?? chain.tip;
  return {
    tx_id: at.txId,
    block: {
      height: block.height,
      hash: block.hash,
      index_hash: block.indexHash,
      time: block.time,
      tx_index: confirmed?.txIndex ?? 0,
    },
    bitcoin_block: { height: block.burnHeight, time: block.time },
  };
}

export function stakingSummary(chain: DevnetChain, principal: string) {
  const book = chain.state.staking;
  const stx = book.stx.get(principal);
  const bonds = [...book.bondPositions.values()].filter((p) => p.staker === principal);
  const sum = (pick: (p: BondPosition) => bigint) => bonds.reduce((total, p) => total + pick(p), 0n);
  return {
    stx: {
      locked: book.lockedStx(principal, burnHeight(chain)).toString(),
      rewards: rewards(stx?.accrued ?? 0n, stx?.claimed ?? 0n),
    },
    bonds: {
      count: bonds.length,
      locked: { btc: sum((p) => p.sats).toString(), stx: sum((p) => p.ustx).toString() },
      rewards: rewards(
        sum((p) => p.accrued),
        sum((p) => p.claimed),
      ),
    },
  };
}

/**
 * A principal's bond position as the API 9.x stores it: `enrolled` from its registration, `early_exit` once it left
 * early (an L1 early exit announced, or all its sBTC taken back), and nothing after. The API never writes `running` or
 * `unlocked` (they are in its schema, not in its writer): a client learns them from the bond's schedule
 * (`staking/bonds/{index}`), as the app does.
 */
export function bondPosition(position: BondPosition) {
  const status = position.earlyExit ? 'early_exit' : 'enrolled';
  return {
    bond_index: position.bondIndex,
    status,
    // As the API: an L1 early exit makes the position inactive; all its sBTC taken back (also `early_exit`) does not.
    active: !(position.earlyExit && position.type === 'l1'),
    enrollment: { tx_id: position.enrollment.txId, btc_lockup: { amount: position.sats.toString() } },
    locked: { btc: position.sats.toString(), stx: position.ustx.toString() },
    rewards: rewards(position.accrued, position.claimed),
  };
}

export function bondSummary(chain: DevnetChain, bond: Bond) {
  const positions = [...chain.state.staking.bondPositions.values()].filter((p) => p.bondIndex === bond.index);
  const tip = burnHeight(chain);
  return {
    index: bond.index,
    pox_version: 'pox5' as const,
    status: tip < bondStartHeight(bond) ? 'upcoming' : tip < bondUnlockHeight(bond) ? 'active' : 'unlocked',
    parameters: {
      target_rate_bps: bond.targetRateBps,
      stx_value_ratio: bond.stxValueRatio,
      minimum_stx_ratio: bond.minUstxRatio,
      btc_capacity: [...bond.allowlist.values()].reduce((sum, sats) => sum + sats, 0n).toString(),
    },
    registrations: { allowed_count: bond.allowlist.size, registered_count: positions.length },
    schedule: {
      activation: { bitcoin_height: bondStartHeight(bond), pox_cycle: bondFirstCycle(bond.index) },
      unlock: { bitcoin_height: bondUnlockHeight(bond), pox_cycle: bondUnlockCycle(bond) },
    },
    balances: {
      locked: {
        btc: positions.reduce((sum, p) => sum + p.sats, 0n).toString(),
        stx: positions.reduce((sum, p) => sum + p.ustx, 0n).toString(),
      },
      paid_out: { btc: bond.paidOut.toString() },
    },
  };
}

export const bondDetail = (chain: DevnetChain, bond: Bond) => ({
  ...bondSummary(chain, bond),
  transaction: transactionOf(chain, bond.created),
});

export const registrationSummary = (position: BondPosition) => ({
  staker: position.staker,
  signer: position.signer,
  type: position.type,
  balances: { btc: position.sats.toString(), stx: position.ustx.toString() },
});

export const registration = (position: BondPosition) =>
  position.type === 'l1'
    ? {
        ...registrationSummary(position),
        l1_lockup: {
          transactions: position.l1Outputs.map((o) => ({ tx_id: o.txid, output_index: o.outputIndex })),
        },
      }
    : { ...registrationSummary(position), l2_lockup: { tx_id: position.enrollment.txId } };

export const stakingSigner = (record: SignerRecord) => ({ signer: record.signer, signer_key: record.signerKey });

export const stakingSignerDetail = (chain: DevnetChain, record: SignerRecord) => ({
  ...stakingSigner(record),
  transaction: transactionOf(chain, record.registered),
});

/** A signer's stakers, by principal: `stx` for a stake under it, `btc` for a bond registration. */
export function signerStakers(chain: DevnetChain, signer: string) {
  const book = chain.state.staking;
  const tip = burnHeight(chain);
  const stakers = new Map<string, ('stx' | 'btc')[]>();
  const add = (staker: string, type: 'stx' | 'btc') => stakers.set(staker, [...(stakers.get(staker) ?? []), type]);
  for (const [staker, p] of book.stx) if (p.signer === signer && book.activeStake(staker, tip)) add(staker, 'stx');
  for (const p of book.bondPositions.values()) if (p.signer === signer && p.ustx > 0n) add(p.staker, 'btc');
  return [...stakers].sort(([a], [b]) => a.localeCompare(b)).map(([staker, types]) => ({ staker, types }));
}

/**
 * The current cycle's signer set: each signer with at least SIGNER_SET_MIN_USTX delegated to it (stakes of this
 * cycle, and the STX of bonds running in it), its weight in slots of that minimum, and its manager.
 */
export function currentCycleSigners(chain: DevnetChain) {
  const book = chain.state.staking;
  const tip = burnHeight(chain);
  const cycle = cycleOf(tip);
  const delegated = new Map<string, bigint>();
  const add = (signer: string, amount: bigint) => delegated.set(signer, (delegated.get(signer) ?? 0n) + amount);
  for (const p of book.stx.values()) add(p.signer, p.cycles.get(cycle) ?? 0n);
  for (const p of book.bondPositions.values()) {
    const status = book.bondStatus(p, tip);
    if (status === 'running') add(p.signer, p.ustx);
  }
  const set = [...delegated].filter(([signer, amount]) => amount >= SIGNER_SET_MIN_USTX && book.signers.has(signer));
  const weights = set.map(([signer, amount]) => ({ signer, amount, weight: Number(amount / SIGNER_SET_MIN_USTX) }));
  const totalWeight = weights.reduce((sum, s) => sum + s.weight, 0);
  const totalStaked = weights.reduce((sum, s) => sum + s.amount, 0n);
  return weights
    .map(({ signer, amount, weight }) => {
      const record = book.signers.get(signer)!;
      return {
        signing_key: record.signerKey,
        weight: { amount: weight, percent: (weight / totalWeight) * 100 },
        staked_stx: { amount: amount.toString(), percent: Number((amount * 10_000n) / totalStaked) / 100 },
        signer_managers: [
          {
            signer_manager: signer,
            registered_at: {
              block_height: record.registered.height,
              bitcoin_block_height: record.registered.burnHeight,
              tx_id: record.registered.txId,
            },
            granted_keys: [],
            grant_active: false,
            pending_key_update: null,
          },
        ],
      };
    })
    .sort((a, b) => b.weight.amount - a.weight.amount || a.signing_key.localeCompare(b.signing_key));
}
