import { parsePrincipal } from '../../src/domain/address/address.ts';
import { describeAddressError } from '../../src/domain/address/address-messages.ts';
import { ChainError, type DevnetChain } from './chain.ts';
import { json, type DevnetResponse } from './http-kit.ts';
import { signerManagerOf } from './pox5-genesis.ts';
import { BOND_GAP_CYCLES, MAX_NUM_CYCLES, POX5_CONTRACT, SBTC, bondFirstCycle, cycleOf, cycleStart } from './pox5.ts';
import { CYCLE_BURN_BLOCKS } from './ledger.ts';
import { derivedHex } from './random.ts';
import type { Intent } from './transactions.ts';

/** A control request the devnet refuses: answered 400 with this message, nothing submitted. */
class StakingRequestError extends ChainError {}

type Body = Record<string, unknown>;

function principal(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string') throw new StakingRequestError(`“${field}” must be a Stacks address (text)`);
  const parsed = parsePrincipal(value, { network: 'testnet' });
  if (!parsed.ok) throw new StakingRequestError(`“${field}”: ${describeAddressError(parsed.error)}`);
  return parsed.value.principal;
}

function units(body: Body, field: string, fallback?: bigint): bigint {
  const value = body[field];
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+$/.test(value))
    throw new StakingRequestError(`“${field}” must be a whole number of base units as a string, for example "1000000"`);
  return BigInt(value);
}

function whole(body: Body, field: string, min: number, max: number, fallback?: number): number {
  const value = body[field] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new StakingRequestError(`“${field}” must be a whole number from ${min} to ${max}`);
  return value;
}

async function submit(chain: DevnetChain, sender: string, intent: Intent): Promise<DevnetResponse> {
  const entry = await chain.submit(sender, intent);
  return json(200, { tx_id: entry.signed.txId });
}

/** The burn height the next block will have: what a call signed now is mined at, at the earliest. */
const nextBurnHeight = (chain: DevnetChain) => chain.tip.burnHeight + 1;

/** The next bond period that can still be set up: it opens within two cycles and has not started. */
function nextBondIndex(chain: DevnetChain): number {
  const at = nextBurnHeight(chain);
  for (let index = 0; index < 1000; index++) {
    const start = cycleStart(bondFirstCycle(index));
    if (start > at && cycleStart(bondFirstCycle(index) - BOND_GAP_CYCLES) <= at) return index;
  }
  throw new StakingRequestError('no bond period can be set up now');
}

type Action = (chain: DevnetChain, body: Body) => DevnetResponse | Promise<DevnetResponse>;

/** The staking part of the control API (see the README's table). */
export const STAKING_ACTIONS: Record<string, Action> = {
  'POST /devnet/stake': (chain, body) =>
    submit(chain, principal(body, 'staker'), {
      kind: 'pox5-stake',
      signer: signerManagerOf(chain.accounts),
      amount: units(body, 'amount'),
      cycles: whole(body, 'cycles', 1, MAX_NUM_CYCLES, 1),
      startBurnHeight: nextBurnHeight(chain),
    }),
  'POST /devnet/stake-update': (chain, body) =>
    submit(chain, principal(body, 'staker'), {
      kind: 'pox5-stake-update',
      signer: signerManagerOf(chain.accounts),
      amountIncrease: units(body, 'amountIncrease', 0n),
      cyclesToExtend: whole(body, 'cyclesToExtend', 0, MAX_NUM_CYCLES, 0),
    }),
  'POST /devnet/unstake': (chain, body) =>
    submit(chain, principal(body, 'staker'), { kind: 'pox5-unstake', signer: signerManagerOf(chain.accounts) }),
  'POST /devnet/claim': (chain, body) =>
    submit(chain, principal(body, 'staker'), {
      kind: 'pox5-claim',
      signer: signerManagerOf(chain.accounts),
      rewardCycle: cycleOf(nextBurnHeight(chain)) - 1,
    }),
  'POST /devnet/cycles': (chain, body) => {
    const target = cycleStart(cycleOf(chain.tip.burnHeight) + whole(body, 'count', 1, 20, 1));
    while (chain.tip.burnHeight < target) chain.mine();
    return json(200, {
      cycle: cycleOf(chain.tip.burnHeight),
      burn_height: chain.tip.burnHeight,
      height: chain.tip.height,
    });
  },
  'POST /devnet/staking/pause': (chain) => submit(chain, chain.state.staking.admin, { kind: 'pox5-pause-rewards' }),
  'POST /devnet/staking/resume': (chain) => {
    // pox-5 has no unpause (a hard fork would be the way back): the devnet switches it off in its current state.
    chain.state.staking.paused = false;
    return json(200, { paused: false });
  },
  'POST /devnet/staking/bond': (chain, body) => {
    const list = body['allowlist'];
    if (!Array.isArray(list) || list.length === 0)
      throw new StakingRequestError('“allowlist” must be a list of { staker, maxSats } (maxSats in sats, as a string)');
    const allowlist = list.map((entry: Body) => ({
      staker: principal(entry, 'staker'),
      maxSats: units(entry, 'maxSats'),
    }));
    return submit(chain, chain.state.staking.admin, {
      kind: 'pox5-setup-bond',
      index: body['index'] === undefined ? nextBondIndex(chain) : whole(body, 'index', 0, 1000),
      targetRateBps: whole(body, 'targetRateBps', 1, 10_000, 500),
      stxValueRatio: whole(body, 'stxValueRatio', 1, 1_000_000_000, 100_000),
      minUstxRatio: whole(body, 'minUstxRatio', 0, 100_000, 1000),
      admin: chain.state.staking.admin,
      allowlist,
    });
  },
  'POST /devnet/staking/bond-register': (chain, body) => {
    const staker = principal(body, 'staker');
    const type = body['type'];
    if (type !== 'l1' && type !== 'l2')
      throw new StakingRequestError('“type” must be "l1" (BTC on Bitcoin) or "l2" (sBTC)');
    const sats = units(body, 'sats');
    return submit(chain, staker, {
      kind: 'pox5-register-bond',
      index: whole(body, 'index', 0, 1000),
      signer: signerManagerOf(chain.accounts),
      ustx: units(body, 'ustx'),
      lockup:
        type === 'l2'
          ? { type, sats }
          : {
              type,
              outputs: [
                { txid: derivedHex(chain.seed, `btc-lockup/${staker}/${chain.tip.height}`), outputIndex: 0, sats },
              ],
            },
    });
  },
  'POST /devnet/staking/early-exit': (chain, body) => {
    const staker = principal(body, 'staker');
    return submit(chain, staker, { kind: 'pox5-early-exit', staker, signer: signerManagerOf(chain.accounts) });
  },
  'POST /devnet/staking/unstake-sbtc': (chain, body) =>
    submit(chain, principal(body, 'staker'), {
      kind: 'pox5-unstake-sbtc',
      signer: signerManagerOf(chain.accounts),
      sats: units(body, 'sats'),
    }),
  'POST /devnet/problematic': (chain, body) => {
    const txId = body['tx_id'];
    const entry = typeof txId === 'string' ? chain.tx(txId) : undefined;
    if (!entry || entry.state.kind !== 'pending')
      throw new StakingRequestError('“tx_id” must name a pending transaction');
    chain.state.skipped.add(entry.signed.txId);
    return json(200, { tx_id: entry.signed.txId, status: 'problematic_skipped' });
  },
};

/** `GET /devnet/staking`: where the chain is in its cycles, and pox-5's devnet parties. */
export function stakingStatus(chain: DevnetChain): DevnetResponse {
  const burnHeight = chain.tip.burnHeight;
  return json(200, {
    cycle: cycleOf(burnHeight),
    burn_height: burnHeight,
    next_cycle_burn_height: cycleStart(cycleOf(burnHeight) + 1),
    cycle_length: CYCLE_BURN_BLOCKS,
    reward_sats_per_cycle: chain.state.staking.rewardSatsPerCycle.toString(),
    rewards_paused: chain.state.staking.paused,
    pox_contract: POX5_CONTRACT,
    signer_manager: signerManagerOf(chain.accounts),
    sbtc: SBTC.assetIdentifier,
  });
}
