import type { AlertPhase } from './alert-ledger.ts';
import type { AlertItem } from './alert-plan.ts';
import { formatStx } from '../amount.ts';
import { amountText, callName, effectWords, viaWords, wasSkipped, type Naming } from '../text/effect-text.ts';
import { droppedWord } from '../text/activity-text.ts';
import { BACK_IN_MEMPOOL, followUpNote } from '../text/alert-text.ts';
import type { Activity } from '../state/snapshot.ts';
import { txEffect, type AssetEffect } from '../state/tx-effect.ts';
import { toldEffect } from '../text/told-effect.ts';

/**
 * A transaction between two or more watched addresses is one event for the person watching them: "Alice → Walker
 * 4.30 STX", "Dave → demo-vault.withdraw — pending", not a sent and a received alert side by side. Each side stays
 * its own alert (its inbox entry, its address's page); what is shown at once is one notification, under one tag per
 * transaction, whichever side comes first and in every state it is told as one (tray-view.ts). ("Pair" for short: most
 * are two sides, a transfer or a call to a watched contract.)
 */
export interface PairWords {
  /** `network:txId`: the same from either side. */
  readonly key: string;
  /** The sending address, or the caller of a call. */
  readonly from: string;
  /**
   * The receiving address, or for any other transaction its caller when watched (else the contract called): a click
   * opens its page at the transaction.
   */
  readonly to: string;
  readonly title: string;
  readonly body: string;
  /** Each side told, with its state and its own words (shown again should the other side leave). */
  readonly sides: Readonly<Record<string, PairSide>>;
}

export interface PairSide {
  readonly phase: AlertPhase;
  readonly title: string;
  readonly body: string;
}

/** Every state of a transaction is told as one; a balance event (a lock, an unlock) is each address's own. */
const SHARED = new Set<AlertPhase>(['pending', 'confirmed', 'failed', 'reverted', 'dropped']);

/** A failure or a revert is told as that, before the transaction's words (a drop: droppedWord). */
const PREFIX: Partial<Record<AlertPhase, string>> = { failed: 'Failed', reverted: 'Reverted' };

/**
 * What a pair's words start with in a state that is not the transaction done or pending: "Failed", "Reverted",
 * "Dropped" (or "Fee raised" where its signer is watched, else "Replaced": activity-text.ts's droppedWord), and "Reverted — back in the mempool" while a reverted one waits to be mined again; one the miners skipped
 * (Epoch 4.0's `problematic_skipped`) failed as nothing else does, and says so.
 */
export function pairPrefix(
  phase: AlertPhase,
  activity: Activity,
  afterRevert = false,
  signerWatched = true,
): string | undefined {
  if (phase === 'pending' && afterRevert) return BACK_IN_MEMPOOL;
  if (phase === 'dropped') return droppedWord(activity, signerWatched);
  return phase === 'failed' && wasSkipped(activity) ? 'Skipped as problematic' : PREFIX[phase];
}

export const pairTag = (key: string): string => `tx:${key}`;

/**
 * The other parties of a transaction in a state told as one (pending, mined, failed), as this side knows them: who
 * signed it, the contract it calls, the recipient of an STX transfer, the other party of each of its own movements,
 * and for its signer or called contract the parties of every movement once mined. Empty for anything else (a balance
 * event, a revert, a drop).
 */
export function txPartners(item: AlertItem): string[] {
  return item.activity && SHARED.has(item.phase) ? partiesOf(item.activity, item.principal) : [];
}

/** The other parties of a transaction as `principal`'s side of it knows them (see txPartners). */
export function partiesOf(activity: Activity, principal: string): string[] {
  const parties = new Set<string>();
  if (activity.sender) parties.add(activity.sender);
  if (activity.contractCall) parties.add(activity.contractCall.contractId);
  if (activity.kind === 'token_transfer' && activity.counterparty) parties.add(activity.counterparty);
  // A pending token transfer's recipient too, as its arguments name it (told-effect.ts).
  for (const effect of toldEffect(activity, principal).effects)
    for (const other of effect.counterparties) parties.add(other);
  // Once mined, the caller's and the called contract's: every party of its movements (a mint's recipient, a token's).
  // Two recipients of one payer are not each other's other side.
  if (principal === activity.sender || principal === activity.contractCall?.contractId)
    for (const movement of activity.movements ?? [])
      for (const party of [movement.sender, movement.recipient]) if (party) parties.add(party);
  parties.delete(principal);
  return [...parties];
}

/** One asset moved between two addresses, from its sender to its recipient. */
interface OneMove {
  readonly from: string;
  readonly to: string;
  readonly moved: AssetEffect;
}

/** `moved` between an address and one other, from whichever of them it left. */
const directed = (moved: AssetEffect, principal: string, other: string): OneMove =>
  moved.net < 0n ? { from: principal, to: other, moved } : { from: other, to: principal, moved };

/**
 * A plain transfer: one asset moved for the address, to or from one other address; while a token's transfer call is
 * pending, what its arguments say it moves (told-effect.ts).
 */
export function plainTransfer(activity: Activity, principal: string): OneMove | null {
  const [moved, ...others] = toldEffect(activity, principal).effects;
  if (!moved || others.length > 0 || moved.how !== 'transfer' || moved.counterparties.length !== 1) return null;
  const other = moved.counterparties[0]!;
  return other === principal ? null : directed(moved, principal, other);
}

/**
 * A failed STX transfer between two parties, by what it asked to move: nothing moved, but "4.30 STX · Alice → Bob" names
 * which transfer failed (or the miners skipped), as its pending words did. Null without the amount (stored before it
 * was kept) or for anything else.
 */
function failedTransfer(activity: Activity, principal: string): OneMove | null {
  const other = activity.counterparty;
  if (activity.kind !== 'token_transfer' || activity.transferAmount === undefined || !other || other === principal)
    return null;
  const net = activity.sender === principal ? -activity.transferAmount : activity.transferAmount;
  return directed(
    { type: 'stx', assetIdentifier: 'STX', net, how: 'transfer', counterparties: [other], nftIds: [] },
    principal,
    other,
  );
}

/**
 * The one movement of a mined transaction between its watched parties, when one moved one asset from one to another:
 * a mint counts as the signer's (a deployer minting to a watched address), a burn as nobody's.
 */
function oneMove(activity: Activity, parties: readonly string[], signer: string): OneMove | null {
  const touching = (activity.movements ?? []).filter(
    (movement) => parties.includes(movement.sender ?? '') || parties.includes(movement.recipient ?? ''),
  );
  const [movement, ...more] = touching;
  if (!movement?.recipient || more.length > 0) return null;
  const from = movement.sender ?? signer;
  const to = movement.recipient;
  const moved = txEffect(activity, to).effects.find((effect) => effect.assetIdentifier === movement.assetIdentifier);
  return from !== to && parties.includes(from) && parties.includes(to) && moved ? { from, to, moved } : null;
}

/**
 * The transaction's words as one side tells them, or null when no other of its parties is watched. One asset moved
 * between two watched addresses by its amount and parties ("4.30 STX · Alice → Walker", "152.00 DUSD · Deployer →
 * Bob" via demo-usd.mint): the amount first, where a phone's one-line title keeps it; any other transaction by who
 * called what ("Dave → demo-vault.withdraw"), the body saying what it did to each watched address once its movements
 * are known. `labelLimit`: the title's names cut to this many characters (a notification's title; the inbox wraps).
 */
export function pairWords(
  item: AlertItem,
  naming: Naming,
  watched: (principal: string) => boolean,
  own: { title: string; body: string },
  labelLimit = Infinity,
): PairWords | null {
  const named = (principal: string) => clipped(naming.party(principal), labelLimit);
  const activity = item.activity;
  const partners = txPartners(item).filter(watched);
  if (!activity || partners.length === 0) return null;
  const parties = [item.principal, ...partners].sort();
  const lines: string[] = [];
  const transfer =
    item.phase === 'failed' ? failedTransfer(activity, item.principal) : plainTransfer(activity, item.principal);
  const other = transfer && (transfer.from === item.principal ? transfer.to : transfer.from);
  // One movement between watched addresses, else the address's own plain transfer with a watched one.
  const move =
    (item.phase === 'failed' ? null : oneMove(activity, parties, activity.sender ?? item.principal)) ??
    (other && watched(other) ? transfer : null);
  const signer = activity.sender ?? move?.from ?? item.principal;
  const from = move?.from ?? signer;
  let title: string;
  let to: string;
  const call = activity.contractCall;
  if (move) {
    to = move.to;
    title = `${amountText(move.moved, naming)} · ${named(from)} → ${named(to)}`;
    if (call) lines.push(viaWords(call));
  } else if (call) {
    // Who called what; a click opens the caller's page, else the contract's: the watched address every side names alike.
    to = parties.includes(signer) ? signer : parties.includes(call.contractId) ? call.contractId : item.principal;
    title = `${named(signer)} → ${callName(call)}`;
    // What it did to each watched address, once every movement is known (the node's events).
    if (item.phase === 'confirmed' && activity.movements)
      for (const party of parties) {
        const [main, ...more] = txEffect(activity, party).effects;
        if (main)
          lines.push(
            `${naming.party(party)}: ${effectWords(main, 'done', naming)}${more.length > 0 ? ` and ${more.length} more` : ''}`,
          );
      }
  } else {
    // No call and no one movement between watched addresses: by its signer and the other side.
    to = [item.principal, ...partners].find((party) => party !== signer) ?? item.principal;
    title = `${named(signer)} → ${named(to)}`;
  }
  const memo = own.body.split('\n').find((line) => line.startsWith('“'));
  if (memo) lines.push(memo);
  // A transaction no block holds (dropped, or reverted) paid no fee: what that means is said instead.
  const afterRevert = Boolean(item.afterRevert);
  const note = followUpNote(item.phase, activity, afterRevert);
  if (note) lines.push(note);
  else if (activity.fee > 0n) lines.push(`Fee ${formatStx(activity.fee)}, paid by ${naming.party(signer)}`);
  const prefix = pairPrefix(item.phase, activity, afterRevert, parties.includes(activity.sender ?? ''));
  if (prefix) title = `${prefix}: ${title}`;
  return {
    key: `${item.network}:${activity.txId}`,
    from,
    to,
    title: item.phase === 'pending' && !afterRevert ? `${title} — pending` : title,
    body: lines.join('\n'),
    sides: { [item.id]: { phase: item.phase, ...own } },
  };
}

/** A name cut to `limit` characters (as a person counts them: a flag or a family emoji is one), its last "…". */
const clipped = (name: string, limit: number): string => {
  if (name.length <= limit) return name;
  const characters = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(name)].map(
    ({ segment }) => segment,
  );
  return characters.length > limit ? `${characters.slice(0, limit - 1).join('')}…` : name;
};

/** How long a name may be in a notification's title of a transaction between watched addresses. */
export const TITLE_LABEL_LIMIT = 16;
