import type { Activity, Movement } from '../state/snapshot.ts';
import { txEffect } from '../state/tx-effect.ts';

/**
 * Address poisoning: a scammer makes an address whose first and last characters match one the victim uses, sends it
 * a dust transfer so that it shows up in the history, and waits for the victim to copy it from there. Wallets and
 * explorers show addresses cut in the middle (`SP2J6Z…V9EJ7`), and people check the ends: the poisoners' vanity
 * generators match the first 4 characters after the 2-character prefix and the last 4 (8 c32 characters, 40 bits:
 * hours on a GPU). Matching more would miss the common attacks; matching fewer would flag honest coincidences.
 */
export const LOOKALIKE_HEAD = 4;
export const LOOKALIKE_TAIL = 4;
const PREFIX = 2;

export const LOOKALIKE_EXPLANATION =
  `An address is flagged as a possible address-poisoning attempt when it sends to a watched address and its first ` +
  `${PREFIX + LOOKALIKE_HEAD} characters (the ${PREFIX}-letter prefix and the ${LOOKALIKE_HEAD} after it) and ` +
  `last ${LOOKALIKE_TAIL} characters are the same as those of one of your watched addresses or of an address a ` +
  `watched address sent to, while the address itself is different. Scammers send dust from such addresses so that ` +
  `you copy theirs from your history: always copy an address from your own records, never from an incoming transfer.`;

/** The standard address of a principal (a contract's deployer), upper case. */
const addressOf = (principal: string): string => (principal.split('.')[0] ?? '').toUpperCase();

/** The characters people check: prefix and head, and tail. Two different addresses with the same ends look alike. */
export function lookalikeEnds(principal: string): string {
  const address = addressOf(principal);
  return `${address.slice(0, PREFIX + LOOKALIKE_HEAD)}…${address.slice(-LOOKALIKE_TAIL)}`;
}

/** The trusted address `sender` imitates, or null: same ends, different address, and not itself trusted. */
export function findLookalike(sender: string, trusted: ReadonlySet<string>): string | null {
  const address = addressOf(sender);
  if (address.length < PREFIX + LOOKALIKE_HEAD + LOOKALIKE_TAIL || trusted.has(address)) return null;
  const ends = lookalikeEnds(address);
  for (const known of trusted) if (known !== address && lookalikeEnds(known) === ends) return known;
  return null;
}

/** What trustedAddresses reads of a snapshot: who the address is and what it sent. */
export interface SentHistory {
  readonly principal: string;
  readonly recent: readonly (Pick<Activity, 'status' | 'sender' | 'kind' | 'counterparty'> & {
    readonly movements?: readonly Pick<Movement, 'sender' | 'recipient'>[] | null;
  })[];
}

/**
 * The addresses a user relies on: every watched address, and every address a watched address sent something to
 * (a past counterparty the user chose). Senders of incoming transfers are not trusted by receiving from them:
 * that is exactly what a poisoner arranges.
 */
export function trustedAddresses(
  watched: readonly string[],
  snapshots: readonly (SentHistory | undefined)[],
): Set<string> {
  const trusted = new Set(watched.map(addressOf));
  for (const snapshot of snapshots) {
    if (!snapshot) continue;
    for (const activity of snapshot.recent) {
      if (activity.status !== 'success' || activity.sender !== snapshot.principal) continue;
      for (const movement of activity.movements ?? []) {
        if (movement.sender === snapshot.principal && movement.recipient) trusted.add(addressOf(movement.recipient));
      }
      if (activity.kind === 'token_transfer' && activity.counterparty) trusted.add(addressOf(activity.counterparty));
    }
  }
  return trusted;
}

export interface PoisoningSuspect {
  /** The address that sent to the watched one. */
  readonly sender: string;
  /** The trusted address it imitates. */
  readonly imitates: string;
}

/** Whether a transaction brought `principal` something from a lookalike of a trusted address. */
export function poisoningSuspect(
  activity: Activity,
  principal: string,
  trusted: ReadonlySet<string>,
): PoisoningSuspect | null {
  const effect = txEffect(activity, principal);
  const senders = new Set<string>();
  for (const asset of effect.effects) if (asset.net > 0n) asset.counterparties.forEach((party) => senders.add(party));
  if (senders.size === 0 && activity.stxNet > 0n && activity.counterparty) senders.add(activity.counterparty);
  for (const sender of senders) {
    const imitates = findLookalike(sender, trusted);
    if (imitates) return { sender, imitates };
  }
  return null;
}
