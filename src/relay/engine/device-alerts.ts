import { partiesOf, tokensOf, type AlertFacts } from '../../domain/alerts/alert-facts.ts';
import { DEFAULT_RULES, type AlertRules } from '../../domain/alerts/alert-rules.ts';
import type { InboxEntry } from '../../domain/alerts/inbox.ts';
import { poisoningSuspect, trustedAddresses } from '../../domain/address/lookalike.ts';
import type { Network } from '../../domain/network.ts';
import type { AddressSnapshot } from '../../domain/state/snapshot.ts';
import { isOutgoing, txEffect } from '../../domain/state/tx-effect.ts';
import type { NamePort, SnapshotPort, TokenPort } from '../../monitor/ports.ts';
import { Alerter } from '../../notify/alerter.ts';
import { isSummaryTag } from '../../domain/text/notification-content.ts';
import type { TextContext } from '../../domain/text/alert-text.ts';
import type { AlertItem } from '../../domain/alerts/alert-plan.ts';
import type { AlertWrites } from '../storage/alert-writes.ts';
import type { Urgency } from '../storage/deliveries.ts';
import type { StoredWatch } from '../storage/devices.ts';
import { DeviceInbox, DeviceLedgers, type StoredDeviceState } from '../storage/device-alert-stores.ts';
import type { Database } from '../storage/sql.ts';
import type { SharedWords } from './shared-words.ts';

export interface SharedState {
  readonly db: Database;
  /** Every device's new states and ledgers, written together (group commit). */
  readonly writes: AlertWrites;
  readonly snapshots: SnapshotPort;
  readonly tokens: TokenPort;
  readonly names: NamePort;
  readonly report: (problem: string) => void;
  /** Alerts' words, built once for all the devices of an address. */
  readonly words?: SharedWords;
}

const key = (network: Network, principal: string): string => `${network}:${principal}`;

/**
 * One device's alerts: the page's Alerter, unchanged, over this device's rules, ledgers and inbox in SQL. Its
 * deliveries are the outbox rows its inbox writes (with every other device's, in one transaction); the sender pushes
 * them.
 */
export class DeviceAlerts {
  readonly alerter: Alerter;
  /** Times it was handed something (the engine puts away only a device not handed more while it became idle). */
  uses = 0;
  /** Kept in memory whatever else: its catch-up is under way (an alerter reading its ledgers looks idle). */
  pinned = false;
  private watches = new Map<string, StoredWatch>();
  /** The trusted addresses, and the snapshots of its watches they were read from. */
  private trustedFrom: { read: readonly (AddressSnapshot | undefined)[]; trusted: Set<string> } | null = null;

  constructor(
    readonly deviceId: string,
    shared: SharedState,
    /** What it stored, when already read (on start); else its alerter reads it. */
    stored?: StoredDeviceState,
  ) {
    const { db, writes, snapshots, tokens, names, words } = shared;
    // The relay never learns labels: the words are the address's own.
    const text: TextContext = {
      label: () => '',
      nameOf: (principal) => names.get(principal) ?? null,
      token: (asset) => tokens.get(asset),
      // Judged as the open app judges it, from this device's watched addresses and what they sent: the words the
      // relay sends are those a browser shows without the worker (Safari's declarative push) or when it fails.
      suspect: (activity, principal) => poisoningSuspect(activity, principal, this.trusted(snapshots)),
    };
    this.alerter = new Alerter({
      ledgers: new DeviceLedgers(db, writes, deviceId, stored?.ledgers),
      inbox: new DeviceInbox(
        db,
        writes,
        deviceId,
        (entry) => this.urgencyOf(entry, snapshots),
        stored?.states,
        (facts) => knownTo(facts, shared),
      ),
      settings: {
        // The relay shows nothing itself: every state goes to the push service.
        get: () => ({ whileOpen: 'system' }),
        rulesFor: (network, principal): AlertRules => this.watches.get(key(network, principal))?.rules ?? DEFAULT_RULES,
      },
      watched: (network, principal) => this.watches.get(key(network, principal)),
      snapshot: (principal) => snapshots.get(principal),
      text,
      ...(words ? { words: (item: AlertItem) => words.of(item, text) } : {}),
      // Recorded as the device's tray would tell each state: its outbox rows carry them to the push service.
      deliver: (told) =>
        Promise.resolve(
          new Map(
            told.map(({ id, tray }) => [id, !tray ? 'inbox' : isSummaryTag(tray.tag) ? 'summary' : 'notification']),
          ),
        ),
      report: shared.report,
    });
  }

  /** Replaces the watch list; returns the watches new to this device and those it no longer has. */
  setWatches(watches: readonly StoredWatch[]): { added: StoredWatch[]; removed: StoredWatch[] } {
    const before = this.watches;
    this.trustedFrom = null;
    this.watches = new Map(watches.map((watch) => [key(watch.network, watch.principal), watch]));
    return {
      added: watches.filter((watch) => !before.has(key(watch.network, watch.principal))),
      removed: [...before.values()].filter((watch) => !this.watches.has(key(watch.network, watch.principal))),
    };
  }

  listWatches(): IterableIterator<StoredWatch> {
    return this.watches.values();
  }

  watchesOn(network: Network, principal: string): boolean {
    return this.watches.has(key(network, principal));
  }

  /**
   * The addresses this device's watched ones sent to: asked for the title and again for the body of every alert, and
   * the same until one of their snapshots changes (a snapshot is replaced, never changed in place).
   */
  private trusted(snapshots: SnapshotPort): Set<string> {
    const principals = [...this.watches.values()].map((watch) => watch.principal);
    const read = principals.map((principal) => snapshots.get(principal));
    const kept = this.trustedFrom;
    if (kept && kept.read.length === read.length && kept.read.every((snapshot, index) => snapshot === read[index]))
      return kept.trusted;
    const trusted = trustedAddresses(principals, read);
    this.trustedFrom = { read, trusted };
    return trusted;
  }

  private urgencyOf(entry: InboxEntry, snapshots: SnapshotPort): Urgency {
    if (entry.phase !== 'confirmed' || !entry.txId) return 'normal';
    const activity = snapshots.get(entry.principal)?.recent.find((candidate) => candidate.txId === entry.txId);
    return activity && !isOutgoing(txEffect(activity, entry.principal)) ? 'high' : 'normal';
  }
}

/** The BNS names and token metadata the relay knows for an alert's facts: the device may not know them yet. */
function knownTo(facts: AlertFacts, { names, tokens }: SharedState): AlertFacts {
  const named = partiesOf(facts).flatMap((principal) => {
    const name = names.get(principal);
    return name ? [[principal, name] as const] : [];
  });
  const known = tokensOf(facts).flatMap((contract) => {
    const metadata = tokens.get(contract);
    return metadata ? [[contract, metadata] as const] : [];
  });
  return {
    ...facts,
    ...(named.length > 0 ? { names: Object.fromEntries(named) } : {}),
    ...(known.length > 0 ? { tokens: Object.fromEntries(known) } : {}),
  };
}
