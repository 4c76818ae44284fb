import { principalsOf, type DevnetChain, type TxEntry } from '../../../mocks/devnet/chain.ts';
import type { AssetEvent, Outcome } from '../../../mocks/devnet/ledger.ts';
import type { InboxEntry } from '../../../src/domain/alerts/inbox.ts';
import { SBTC } from '../../../mocks/devnet/pox5.ts';

/**
 * The truth, from the devnet's own ledger: for every watched principal, which transactions must end in the inbox,
 * in which state, and what their words must say. Written apart from the app's code: its own formatting, its own
 * reading of the chain's events.
 */

export interface Watch {
  readonly principal: string;
  readonly label: string;
  /** Transactions the chain listed for it when it was added (history: never told). */
  readonly historyAtAdd: ReadonlySet<string>;
  /** Transactions pending for it when it was added (their pending state is history; what follows is not). */
  readonly pendingAtAdd: ReadonlySet<string>;
}

/** What the scenario saw happen, beyond the ledger's final state. */
export interface Observations {
  /** Transactions that went pending while the app could not see them and left the mempool before it could. */
  readonly unseenPending: ReadonlySet<string>;
  /** Transactions orphaned by a re-org: their state and parties while they were mined. */
  readonly orphaned: ReadonlyMap<string, { readonly outcome: Outcome; readonly principals: readonly string[] }>;
  /** When each watch began, in transactions submitted so far: a transaction submitted before it was never seen pending by it. */
  readonly watchedAtSubmit: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Transactions no `mempool` frame of which reached the app's socket (sent while it was dropped, or lost on the way
   * as it dropped), and that the app was not seen holding pending: it saw them pending only if one of its REST reads
   * met them before they left the mempool.
   */
  readonly unheard?: ReadonlySet<string>;
}

export interface Expected {
  readonly id: string;
  readonly principal: string;
  readonly txId: string;
  readonly phase: 'confirmed' | 'failed' | 'pending' | 'dropped' | 'reverted';
  readonly entry: TxEntry;
  readonly events: readonly AssetEvent[];
  /** It failed when mined (a revert then tells that failure as undone). */
  readonly failed?: boolean;
  /** Its failure was the miners skipping it (Epoch 4.0's problematic_skipped): told as skipped, never as failed. */
  readonly skipped?: boolean;
  /**
   * History when the address was added, orphaned by a re-org since: told or not, as the app may or may not have
   * read it (its first sync reads one page of history, as the node lists it). If told, in this state.
   */
  readonly optional?: boolean;
  /** Pending again after a re-org orphaned its told block: told as that revert, "back in the mempool". */
  readonly afterRevert?: boolean;
}

/** How many mined reward claims the run required to be told: what a seed proved about claims. */
export const claimsToTell = (expected: readonly Expected[]): number =>
  expected.filter(
    (item) => item.phase === 'confirmed' && !item.optional && item.entry.signed.intent.kind === 'pox5-claim',
  ).length;

/** The parties the node's mempool files a pending transaction under: sender, STX recipient, called contract. */
export function mempoolParties(entry: TxEntry): string[] {
  const { sender, intent, contractCall } = entry.signed;
  return [
    sender,
    ...(intent.kind === 'stx' ? [intent.recipient] : []),
    ...(contractCall ? [contractCall.contractId] : []),
  ];
}

/**
 * The parties a relay's chain follower files a pending transaction under: it reads the `mempool` event's whole
 * transaction, so its sponsor (who pays the fee) is one of them too, where the node's per-address mempool leaves it out.
 */
export function followerPendingParties(entry: TxEntry): string[] {
  const sponsor = entry.signed.sponsor?.address;
  return [...mempoolParties(entry), ...(sponsor ? [sponsor] : [])];
}

/**
 * `pendingParties`: who the watcher's feed tells of a pending transaction (the page's per-address mempool by default;
 * `followerPendingParties` for a relay).
 */
export function expectedAlerts(
  chain: DevnetChain,
  watches: readonly Watch[],
  seen: Observations,
  allTxs: readonly TxEntry[],
  pendingParties: (entry: TxEntry) => readonly string[] = mempoolParties,
): Expected[] {
  const expected: Expected[] = [];
  for (const watch of watches) {
    const p = watch.principal;
    for (const entry of allTxs) {
      const txId = entry.signed.txId;
      const history = watch.historyAtAdd.has(txId);
      if (history && !seen.orphaned.has(txId)) continue;
      const inMempool = pendingParties(entry).includes(p);
      const toldPending =
        inMempool &&
        !watch.pendingAtAdd.has(txId) &&
        !seen.unseenPending.has(txId) &&
        (seen.watchedAtSubmit.get(txId)?.has(p) ?? false);
      // Told pending, unless the feed told no one and no REST read met it pending: what follows from it may be told.
      const perhapsPending = toldPending && (seen.unheard?.has(txId) ?? false);
      const signed = entry.signed.sender === p;
      const add = (
        phase: Expected['phase'],
        events: readonly AssetEvent[],
        failed = false,
        skipped = false,
        perhaps = false,
        afterRevert = false,
      ) =>
        expected.push({
          id: `testnet:${p}:${txId}`,
          principal: p,
          txId,
          phase,
          entry,
          events,
          failed,
          skipped,
          ...(history || perhaps ? { optional: true } : {}),
          ...(afterRevert ? { afterRevert } : {}),
        });
      const state = entry.state;
      // Orphaned by a re-org (back in the mempool, maybe mined again since): what was told of it then is reverted,
      // and stays the last word where nothing of its state now is told to this principal.
      const orphan = seen.orphaned.get(txId);
      const toldOrphan =
        orphan?.principals.includes(p) === true && (orphan.outcome.status === 'success' || signed || toldPending);
      const before = expected.length;
      if (state.kind === 'confirmed') {
        if (principalsOf(entry).includes(p)) {
          if (state.outcome.status === 'success') add('confirmed', state.outcome.events);
          else if (signed || toldPending || toldOrphan)
            add(
              'failed',
              [],
              false,
              state.outcome.status === 'problematic_skipped',
              perhapsPending && !signed && !toldOrphan,
            );
        }
      } else if (state.kind === 'pending') {
        // Pending when the watch began is history, unless it was mined, told, and orphaned since.
        if (inMempool && (!watch.pendingAtAdd.has(txId) || toldOrphan))
          add('pending', intended(entry), false, false, false, toldOrphan);
      } else if (toldPending || (inMempool && toldOrphan))
        add('dropped', intended(entry), false, false, perhapsPending && !(inMempool && toldOrphan));
      if (expected.length === before && toldOrphan)
        add(
          'reverted',
          orphan!.outcome.events,
          orphan!.outcome.status !== 'success',
          orphan!.outcome.status === 'problematic_skipped',
        );
    }
  }
  return expected;
}

/** The devnet's boot deployer, where pox-4 and pox-5 live. */
const BOOT = 'ST000000000000000000002AMW42H';

/** What a holder reads for the chain's own PoX calls, by contract and function: pending, done, failed. */
const POX_WORDS: Readonly<Record<string, readonly [string, string, string]>> = {
  'pox-5.stake': ['Staking STX', 'Staked STX', 'Stake failed'],
  'pox-5.stake-update': ['Updating stake', 'Updated stake', 'Stake update failed'],
  'pox-5.unstake': ['Requesting unstake', 'Unstake requested', 'Unstake failed'],
  'pox-5.register-for-bond': ['Registering for a bond', 'Registered for a bond', 'Bond registration failed'],
  'pox-5.announce-l1-early-exit': ['Announcing a bond exit', 'Announced a bond exit', 'Bond exit announcement failed'],
  'pox-5.unstake-sbtc': ['Withdrawing bonded sBTC', 'Withdrew bonded sBTC', 'Bond sBTC withdrawal failed'],
  'pox-4.stack-stx': ['Stacking STX', 'Stacked STX', 'Stacking failed'],
  'pox-4.stack-extend': ['Extending stacking', 'Extended stacking', 'Stacking extension failed'],
};

/** pox-5's calls that set a staker's position: their effect is told by a staking alert, with amounts and cycles. */
const POSITION_CALLS = new Set(['stake', 'stake-update', 'unstake']);

/**
 * A state the staking alert tells in its place, by the ledger: the principal's own pox-5 stake, stake-update or
 * unstake, pending or mined with success. Its entry may stay in the inbox only (a quiet one).
 */
export function toldByStaking(chain: DevnetChain, entry: InboxEntry): boolean {
  const tx = entry.txId ? chain.tx(entry.txId) : undefined;
  const call = tx?.signed.contractCall;
  return (
    !!tx &&
    !!call &&
    tx.signed.sender === entry.principal &&
    call.contractId.split('.')[1] === 'pox-5' &&
    POSITION_CALLS.has(call.functionName) &&
    (entry.phase === 'pending' || entry.phase === 'confirmed')
  );
}

/**
 * Back in the mempool after its block was orphaned: told as that revert ("Reverted — back in the mempool") wherever
 * the app had met it mined (the revert itself told, or heard in the same batch and told by this state alone); plain
 * pending where the app never met it mined (the re-org came first). No staking alert tells such a revert: a lock gone
 * before its unlock height is a re-org, no staking news, so a stake told "Staked" is undone by it in silence but for
 * this state.
 */
export const toldAsRevert = (expected: Expected, entry: InboxEntry): boolean =>
  expected.afterRevert === true &&
  entry.deliveries.some((delivery) => ['confirmed', 'failed', 'reverted'].includes(delivery.phase));

/**
 * What a pending transaction would move, as signed: an STX transfer's one movement, a token's transfer call's (its
 * words read its arguments); any other call's are not known yet.
 */
const intended = (entry: TxEntry): AssetEvent[] => {
  const { sender, intent } = entry.signed;
  if (intent.kind === 'stx')
    return [{ type: 'stx_transfer', sender, recipient: intent.recipient, amount: intent.amount }];
  if (intent.kind === 'ft')
    return [
      {
        type: 'ft_transfer',
        asset: intent.token.assetIdentifier,
        sender,
        recipient: intent.recipient,
        amount: intent.amount,
      },
    ];
  return [];
};

// ---- words ---------------------------------------------------------------------------------------------------

interface Effect {
  readonly asset: string;
  readonly net: bigint;
  readonly minted: boolean;
  readonly burned: boolean;
  readonly others: string[];
  readonly ids: bigint[];
}

function effectsFor(events: readonly AssetEvent[], principal: string): Effect[] {
  const by = new Map<string, { net: bigint; minted: boolean; burned: boolean; others: string[]; ids: bigint[] }>();
  for (const event of events) {
    if (event.type === 'stx_lock') continue;
    const gains = event.recipient === principal;
    const loses = event.sender === principal;
    if (gains === loses) continue;
    const asset = event.type === 'stx_transfer' ? 'STX' : event.asset;
    const amount = event.type === 'nft_transfer' ? 1n : event.amount;
    const row = by.get(asset) ?? { net: 0n, minted: false, burned: false, others: [], ids: [] };
    row.net += gains ? amount : -amount;
    if (gains && event.sender === null) row.minted = true;
    if (loses && event.recipient === null) row.burned = true;
    const other = gains ? event.sender : event.recipient;
    if (other) row.others.push(other);
    if (event.type === 'nft_transfer') row.ids.push(event.id);
    by.set(asset, row);
  }
  return [...by].filter(([, row]) => row.net !== 0n).map(([asset, row]) => ({ asset, ...row }));
}

/**
 * Base units in display units: commas in the whole part; the fraction without trailing zeros but at least two
 * digits (when the asset has them), so that amounts line up.
 */
export function display(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const abs = negative ? -amount : amount;
  const scale = 10n ** BigInt(decimals);
  const whole = (abs / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const digits = decimals === 0 ? '' : (abs % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  const fraction = digits.padEnd(Math.min(2, decimals), '0');
  return `${whole}${fraction ? `.${fraction}` : ''}`;
}

function amountWords(chain: DevnetChain, effect: Effect): string {
  const size = effect.net < 0n ? -effect.net : effect.net;
  if (effect.asset === 'STX') return `${display(size, 6)} STX`;
  // sBTC with all eight decimals, so that a reward of a few sats never reads as nothing.
  if (effect.asset === SBTC.assetIdentifier)
    return `${display(size / 100_000_000n, 0)}.${(size % 100_000_000n).toString().padStart(8, '0')} sBTC`;
  const token = chain.assets.tokens.find((candidate) => candidate.assetIdentifier === effect.asset);
  if (token) return `${display(size, token.decimals)} ${token.symbol}`;
  const name = effect.asset.split('::')[1];
  // People read a Clarity uint id as a number: u15 is "#15".
  return size === 1n && effect.ids.length === 1 ? `${name} #${effect.ids[0]}` : `${size} ${name}`;
}

const VERB = {
  mint: ['Minted', 'Minting'],
  burn: ['Burned', 'Burning'],
  in: ['Received', 'Receiving'],
  claim: ['Claimed', 'Claiming'],
  out: ['Sent', 'Sending'],
} as const;

/** Every mismatch between an alert's words and the truth; empty when they agree. */
export function wordProblems(
  chain: DevnetChain,
  expected: Expected,
  entry: InboxEntry,
  nameOf: (principal: string) => string,
): string[] {
  const problems: string[] = [];
  const { signed } = expected.entry;
  const p = expected.principal;
  const call = signed.contractCall;
  const callName = call ? `${call.contractId.split('.')[1]}.${call.functionName}` : null;
  // The chain's own PoX calls read in words: [pending, done, failed].
  const pox = call?.contractId.startsWith(`${BOOT}.`) ? POX_WORDS[callName!] : undefined;
  // A claim of staking rewards is told by what it does; its contract function's name is for the detail only.
  const claimCall = call?.functionName === 'claim-rewards';
  const pendingTense = expected.phase === 'pending' || expected.phase === 'dropped';
  const feeText = signed.sender === p ? ` · fee ${display(signed.fee, 6)} STX` : '';
  let title = entry.title;
  const failedAs = claimCall
    ? 'Reward claim failed'
    : pox
      ? pox[2]
      : callName
        ? `Failed: ${callName}`
        : 'Transfer failed';
  // One the miners skipped says so where a failure says "failed": "Stake skipped as problematic".
  const failedWords = expected.skipped
    ? failedAs.replace(/^Failed: /, 'Skipped as problematic: ').replace(/ failed$/, ' skipped as problematic')
    : failedAs;
  if (expected.phase === 'reverted' && expected.failed) {
    if (title !== `Reverted: ${failedWords}`) problems.push(`title "${title}", expected "Reverted: ${failedWords}"`);
    return problems;
  }
  if (expected.phase === 'failed') {
    const want = `${failedWords}${feeText}`;
    if (title !== want) problems.push(`title "${title}", expected "${want}"`);
    return problems;
  }
  const afterRevert = toldAsRevert(expected, entry);
  const prefix = afterRevert
    ? 'Reverted — back in the mempool: '
    : expected.phase === 'reverted'
      ? 'Reverted: '
      : expected.phase === 'dropped'
        ? // Replaced by a transaction of its nonce paying more: never a loss; the fee raised to its signer.
          feeRaisedFor(chain, expected.entry, title)
          ? signed.sender === p
            ? 'Fee raised: '
            : 'Replaced: '
          : 'Dropped: '
        : '';
  if (!title.startsWith(prefix)) problems.push(`title "${title}" should start with "${prefix}"`);
  // A fee raised names the transaction that took its place, as a person would match it ("0x3f71…b734").
  const replacedBy = expected.entry.state.kind === 'dropped' ? expected.entry.state.replacedBy : null;
  if (
    (prefix === 'Fee raised: ' || prefix === 'Replaced: ') &&
    replacedBy &&
    !entry.body.includes(`${replacedBy.slice(0, 6)}…${replacedBy.slice(-4)}`)
  )
    problems.push(`body "${entry.body}" should name the replacement ${replacedBy}`);
  title = title.slice(prefix.length);
  const suffix =
    expected.phase === 'pending' && !afterRevert ? ' — pending' : expected.phase === 'confirmed' ? feeText : '';
  if (!title.endsWith(suffix)) problems.push(`title "${entry.title}" should end with "${suffix}"`);
  title = title.slice(0, title.length - suffix.length);
  const effects = effectsFor(expected.events, p);
  if (effects.length === 0) {
    const want = claimCall
      ? `${pendingTense ? 'Claiming' : 'Claimed'} rewards`
      : pox
        ? pox[pendingTense ? 0 : 1]
        : callName
          ? `${pendingTense ? 'Calling' : 'Called'} ${callName}`
          : null;
    if (want && title !== want) problems.push(`title "${entry.title}", expected "${want}"`);
    return problems;
  }
  const more = effects.length > 1 ? ` and ${effects.length - 1} more` : '';
  if (!title.endsWith(more)) problems.push(`title "${entry.title}" should say "${more}"`);
  const core = title.slice(0, title.length - more.length);
  const tense = pendingTense ? 1 : 0;
  const candidates = effects.map((effect) => {
    // Staking rewards paid by the staker's own claim (claim-rewards, through its signer manager).
    const claim = call?.functionName === 'claim-rewards' && effect.asset === SBTC.assetIdentifier && effect.net > 0n;
    const verb = effect.minted
      ? VERB.mint
      : effect.burned
        ? VERB.burn
        : claim
          ? VERB.claim
          : effect.net > 0n
            ? VERB.in
            : VERB.out;
    return { effect, words: `${verb[tense]} ${amountWords(chain, effect)}` };
  });
  const shown = candidates.find((candidate) => candidate.words === core);
  if (!shown) {
    problems.push(`title "${entry.title}" names none of ${candidates.map((c) => `"${c.words}"`).join(', ')}`);
    return problems;
  }
  const { effect } = shown;
  const rewards = claimCall && effect.asset === SBTC.assetIdentifier && effect.net > 0n;
  if (!effect.minted && !effect.burned && effect.others.length > 0) {
    const direction = rewards ? 'Staking rewards from' : effect.net < 0n ? 'To' : 'From';
    const names = effect.others.flatMap((other) => nameOf(other).split('|'));
    if (!names.some((name) => entry.body.includes(`${direction} ${name}`)))
      problems.push(`body "${entry.body}" should say ${direction} ${effect.others.map(nameOf).join(' or ')}`);
  }
  if (claimCall && `${entry.title}\n${entry.body}`.includes('claim-rewards'))
    problems.push(`"${entry.title}" / "${entry.body}" names the contract function claim-rewards`);
  else if (claimCall && !rewards && !pendingTense && !entry.body.includes('reward claim'))
    problems.push(`body "${entry.body}" should say reward claim`);
  else if (callName && !claimCall && !pox && !pendingTense && !entry.body.includes(`via ${callName}`))
    problems.push(`body "${entry.body}" should say via ${callName}`);
  return problems;
}

/**
 * Whether a dropped transaction is told as its fee raised: where the ledger says it was replaced by fee; or, told so,
 * where a transaction of its sender and nonce paying more was mined (the app may meet that one mined before it hears
 * of the drop, and then knows only that much).
 */
function feeRaisedFor(chain: DevnetChain, entry: TxEntry, title: string): boolean {
  if (entry.state.kind !== 'dropped') return false;
  if (entry.state.status === 'dropped_replace_by_fee') return true;
  const { sender, nonce, fee } = entry.signed;
  return (
    /^(Fee raised|Replaced): /.test(title) &&
    chain
      .transactionsOf(sender)
      .some(
        (other) =>
          other.state.kind === 'confirmed' &&
          other.signed.sender === sender &&
          other.signed.nonce === nonce &&
          other.signed.fee > fee,
      )
  );
}

/**
 * Whether the ledger has this dropped transaction's nonce spent by a mined one (its replacement by fee, or a stale
 * drop whose nonce was used again): it can never be mined, and the app may let it leave the tray once it has told
 * the mined one.
 */
export function nonceSpentByMined(chain: DevnetChain, txId: string): boolean {
  const entry = chain.tx(txId);
  if (entry?.state.kind !== 'dropped') return false;
  const { sender, nonce } = entry.signed;
  return chain
    .transactionsOf(sender)
    .some(
      (other) => other.state.kind === 'confirmed' && other.signed.sender === sender && other.signed.nonce === nonce,
    );
}
