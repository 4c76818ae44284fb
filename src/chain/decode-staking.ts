import type { BondHolding, BondSchedule, BondStatus, CycleClock, SbtcRewards } from '../domain/state/staking.ts';
import { integer, list, object, PayloadError, quantity, text } from './payload.ts';

type Field = { value: unknown; path: string };

const BOND_STATUSES: readonly BondStatus[] = ['enrolled', 'running', 'early_exit', 'unlocked', 'rolled_over'];

function rewardsOf(field: Field): SbtcRewards {
  const btc = object(object(field.value, field.path).at('btc').value, `${field.path}.btc`);
  const accrued = quantity(btc.at('accrued'));
  const claimed = quantity(btc.at('claimed'));
  const claimable = quantity(btc.at('claimable'));
  if (claimable > accrued)
    throw new PayloadError(`${field.path}.btc.claimable`, `at most accrued (${accrued})`, claimable);
  return { accrued, claimed, claimable };
}

/** `/extended/v3/principals/{p}/staking`: the STX position and how many bonds to read. */
export function decodeStakingSummary(value: unknown): { staked: bigint; rewards: SbtcRewards; bondCount: number } {
  const body = object(value, '$');
  const stx = object(body.at('stx').value, '$.stx');
  const bonds = object(body.at('bonds').value, '$.bonds');
  return {
    staked: quantity(stx.at('locked')),
    rewards: rewardsOf(stx.at('rewards')),
    bondCount: integer(bonds.at('count')),
  };
}

/** One page of `/extended/v3/principals/{p}/staking/bonds`. */
export function decodeBondPositions(value: unknown): { items: BondHolding[]; total: number } {
  const body = object(value, '$');
  const items = list(body.at('results')).map((field) => {
    const bond = object(field.value, field.path);
    const status = text(bond.at('status'));
    if (!(BOND_STATUSES as readonly string[]).includes(status))
      throw new PayloadError(`${field.path}.status`, BOND_STATUSES.join(' or '), status);
    const locked = object(bond.at('locked').value, `${field.path}.locked`);
    return {
      bondIndex: integer(bond.at('bond_index')),
      status: status as BondStatus,
      lockedSats: quantity(locked.at('btc')),
      lockedUstx: quantity(locked.at('stx')),
      rewards: rewardsOf(bond.at('rewards')),
    };
  });
  return { items, total: integer(body.at('total')) };
}

/**
 * `/extended/v3/staking/bonds/{index}`: the Bitcoin heights its period opens at and its STX unlock at (a bond's
 * schedule is set when it is set up, and never changes).
 */
export function decodeBondSchedule(value: unknown): BondSchedule {
  const schedule = object(object(value, '$').at('schedule').value, '$.schedule');
  const height = (name: string) => integer(object(schedule.at(name).value, `$.schedule.${name}`).at('bitcoin_height'));
  const opens = height('activation');
  const unlocks = height('unlock');
  if (unlocks < opens) throw new PayloadError('$.schedule.unlock.bitcoin_height', `at least ${opens}`, String(unlocks));
  return { opensBurnHeight: opens, unlocksBurnHeight: unlocks };
}

/** The node's `/v2/pox`: the current reward cycle, where the next one starts, how long a cycle is. */
export function decodePoxClock(value: unknown): CycleClock & { burnHeight: number; contractId: string } {
  const body = object(value, '$');
  const length = integer(body.at('reward_cycle_length'));
  if (length === 0) throw new PayloadError('$.reward_cycle_length', 'at least 1', 0);
  const current = object(body.at('current_cycle').value, '$.current_cycle');
  const next = object(body.at('next_cycle').value, '$.next_cycle');
  const cycle = integer(current.at('id'));
  const nextStart = integer(next.at('reward_phase_start_block_height'));
  return {
    cycle,
    startBurnHeight: nextStart - length,
    length,
    burnHeight: integer(body.at('current_burnchain_block_height')),
    contractId: text(body.at('contract_id')),
  };
}

/**
 * The node's `/v2/data_var/…` for a Clarity bool: `{ "data": "0x03" }` is true, `"0x04"` false (Clarity's consensus
 * serialization); anything else is not a bool and is refused with what was expected.
 */
export function decodeDataVarBool(value: unknown): boolean {
  const data = text(object(value, '$').at('data'));
  if (data === '0x03') return true;
  if (data === '0x04') return false;
  throw new PayloadError('$.data', 'a Clarity bool (0x03 or 0x04)', data);
}
