import { ledgerKey, newLedger, sameState, type AlertLedger } from '../domain/alerts/alert-ledger.ts';
import { emptyPlanState, itemState, placeBatch, type AlertItem, type PlanLimits } from '../domain/alerts/alert-plan.ts';
import { entryState, type InboxEntry } from '../domain/alerts/inbox.ts';
import { errorMessage } from '../domain/error-message.ts';
import type { Network } from '../domain/network.ts';
import { forkedFrom } from '../domain/state/fork-mark.ts';
import type { Activity, AddressSnapshot, StxBalance } from '../domain/state/snapshot.ts';
import type { TextContext } from '../domain/text/alert-text.ts';
import { withAlertWorded, type AlertWords } from '../domain/text/notification-content.ts';
import type { ActivitySink, AlertLedgerPort, AlertRulesPort, InboxPort, ReorgScope } from '../monitor/ports.ts';
import { Deliveries, type Deliver } from './deliveries.ts';
import { judgeInput, type AlertInput, type JudgeContext } from './judge-input.ts';
import { keepTrying, type RetryPolicy } from './keep-trying.ts';
import type { StakingChange } from '../monitor/staking-keeper.ts';
import { undoneInBatch } from './reorg-judging.ts';
import { isStakingLock } from './staking-alerts.ts';

export interface AlerterDeps {
  readonly ledgers: AlertLedgerPort;
  readonly inbox: InboxPort;
  readonly settings: AlertRulesPort;
  /** The watched entry of a principal (its label and when it was added), or undefined when no longer watched. */
  readonly watched: (network: Network, principal: string) => { readonly addedAt: number } | undefined;
  /** Its last known state, for the assets it already holds (the unsolicited guard). */
  readonly snapshot: (principal: string) => AddressSnapshot | undefined;
  readonly text: TextContext;
  /** An alert's own words, where the host shares them between alerters (the relay's devices of one address). */
  readonly words?: (item: AlertItem) => AlertWords;
  readonly deliver: Deliver;
  /**
   * Whether the person was away from the app just before now (closed, hidden): a catch-up then reads "While you
   * were away". Taken as so where the host cannot tell.
   */
  readonly away?: () => boolean;
  readonly now?: () => number;
  readonly limits?: PlanLimits;
  readonly report?: (problem: string) => void;
  /** How a failed storage read or write is tried again (it always is). */
  readonly retry?: RetryPolicy;
}

/** A ledger kept from an earlier watch of the same address is reused only if it began after the address was added
 * again (both times from this device's clock: chain time never takes part). */
const READD_MARGIN_MS = 5000;

/**
 * Turns what the monitors learn into alerts: each transaction state is judged once against the address's rules and
 * its ledger (so a replay, a reconnect or a reload never tells anything twice), stored in the inbox before it is
 * shown (so a tab closing in between only delays it), then coalesced into notifications. Inputs are processed one
 * batch at a time, in order; whatever arrives meanwhile forms the next batch.
 */
export class Alerter implements ActivitySink {
  private ledgers = new Map<string, AlertLedger>();
  /** Ledgers read, inbox read afresh and what it holds unshown shown: nothing is judged before. */
  private readonly ready: Promise<void>;
  private queue: AlertInput[] = [];
  private running: Promise<void> | null = null;
  /**
   * Ledger saves and notifications of judged batches, each in order, while the next batch is judged: a second
   * address's alert for the same block does not wait for the first one's round trip to the service worker.
   */
  private saving: Promise<void> = Promise.resolve();
  private readonly deliveries: Deliveries;
  private plan = emptyPlanState();
  private readonly now: () => number;

  constructor(private readonly deps: AlerterDeps) {
    this.now = deps.now ?? Date.now;
    this.deliveries = new Deliveries({
      ...deps,
      whileOpen: () => deps.settings.get().whileOpen,
      now: this.now,
      stored: (task, what) => this.stored(task, what),
      ...(deps.retry ? { handOverRetry: deps.retry } : {}),
      failed: this.failed,
    });
    this.ready = this.prepare();
  }

  /**
   * Reads the ledgers and the inbox, then shows what was stored but not shown (the previous tab closed in
   * between). The inbox is read again because this tab may have followed another until now, and its copy can lag
   * behind that tab's last writes.
   */
  private async prepare(): Promise<void> {
    // Judging without the ledgers would take every address for new (its first sync a baseline): nothing waits less.
    this.ledgers = await this.stored(() => this.deps.ledgers.load(), 'Reading what the alerts have seen');
    await this.stored(() => this.deps.inbox.load(), 'Reading the inbox');
    try {
      await this.deliveries.recover();
    } catch (error) {
      this.deps.report?.(`Could not show the alerts left unshown: ${errorMessage(error)}`);
    }
  }

  private stored<T>(task: () => Promise<T>, what: string): Promise<T> {
    return keepTrying(task, what, this.deps.report, this.deps.retry);
  }

  /**
   * On start: looks at the last known snapshots for anything stored but never judged, once ready. Queued now, not
   * once ready: what is handed over meanwhile was learned after these snapshots (a revert of what one holds mined),
   * and judged before them it would be undone by the older news.
   */
  async start(snapshots: readonly AddressSnapshot[]): Promise<void> {
    for (const snapshot of snapshots) {
      // A re-org the snapshot holds the fork of, though the ledgers stored may predate it: judged as it was then.
      const fork = forkedFrom(snapshot);
      if (fork !== null) this.forked(snapshot.network, snapshot.principal, fork);
      this.activities(snapshot.network, snapshot.principal, [...snapshot.recent, ...snapshot.pending], 'sync');
    }
    await this.ready;
    await this.idle();
  }

  activities(network: Network, principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void {
    this.push({ kind: 'activities', network, principal, activities, source });
  }

  /**
   * What the first sync of an address found: its history and what was pending then, at chain height `height`.
   * All of it predates the watch: recorded as seen, never told; anything mined at or below `height` that is not
   * in it is older history too.
   */
  baseline(
    network: Network,
    principal: string,
    activities: readonly Activity[],
    height: number | null,
    pendingBefore?: number | null,
  ): void {
    this.push({ kind: 'baseline', network, principal, activities, height, pendingBefore });
  }

  reverted(network: Network, principal: string, activities: readonly Activity[], scope?: ReorgScope): void {
    if (activities.length > 0 || scope) this.push({ kind: 'reverted', network, principal, activities, scope });
  }

  balance(network: Network, principal: string, before: StxBalance | null, after: StxBalance): void {
    if (
      before &&
      (before.locked === 0n) !== (after.locked === 0n) &&
      !isStakingLock(before, after, this.deps.snapshot(principal))
    )
      this.push({ kind: 'balance', network, principal, before, after });
  }

  forked(network: Network, principal: string, height: number): void {
    this.push({ kind: 'forked', network, principal, height });
  }

  staking(network: Network, principal: string, change: StakingChange): void {
    this.push({ kind: 'staking', network, principal, change });
  }

  /** Every transaction handed over after an address's first sync may be told: its words need its movements. */
  wantsDetail(network: Network, principal: string): boolean {
    return this.deps.watched(network, principal) !== undefined;
  }

  /** Resolves once everything handed over so far is judged, stored and shown. */
  async idle(): Promise<void> {
    for (;;) {
      while (this.running) await this.running;
      const { saving } = this;
      const recording = this.deliveries.pending;
      await Promise.all([saving, recording]);
      if (!this.running && saving === this.saving && recording === this.deliveries.pending) return;
    }
  }

  private push(input: AlertInput): void {
    this.queue.push(input);
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    await this.ready;
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.process(batch);
      } catch (error) {
        this.deps.report?.(`Could not raise alerts: ${errorMessage(error)}`);
      }
    }
    this.running = null;
  }

  private async process(batch: readonly AlertInput[]): Promise<void> {
    const now = this.now();
    const judgedItems: AlertItem[] = [];
    // The ledgers as this batch leaves them: they replace the kept ones only once the inbox has stored its states.
    const judged = new Map<string, AlertLedger>();
    const touched = new Set<string>();
    for (const given of batch) {
      const entry = this.deps.watched(given.network, given.principal);
      if (!entry) continue;
      const key = ledgerKey(given);
      const kept = judged.get(key) ?? this.ledgerOf(given.network, given.principal, entry.addedAt);
      // Before its first sync an address has no history to re-judge.
      if (!kept && given.kind === 'forked') continue;
      const before = kept ?? this.newLedgerFor(given.network, given.principal, now);
      // An address with no ledger met by a sync (its ledger was lost, or the address was added again): what it
      // finds is the address's baseline, as on a first sync. Nothing known before is told again.
      const input: AlertInput =
        !kept && given.kind === 'activities' && given.source === 'sync'
          ? { ...given, kind: 'baseline', height: this.deps.snapshot(given.principal)?.syncedHeight ?? null }
          : given;
      const after = judgeInput(input, before, this.judging(input, now), judgedItems);
      if (after !== before) touched.add(key);
      judged.set(key, after);
    }
    // A quiet state of an alert shown before is told as ever: its notification must not be left saying "pending".
    const items = undoneInBatch(judgedItems, (id) => entryState(this.deps.inbox.get(id))).map((item) =>
      item.quiet && this.deliveries.shownAs(item.id) !== null ? { ...item, quiet: undefined } : item,
    );
    // Where each state goes on the tray, decided against how the alerts were told before this batch.
    const { placed, state } = placeBatch(
      items,
      this.plan,
      now,
      this.deliveries.shownAs,
      this.deps.limits,
      (network, principal) => Boolean(this.deps.watched(network, principal)),
    );
    this.plan = state;
    // The inbox first (it is also the outbox), then the ledgers, in memory and stored: until the inbox write commits
    // nothing is marked seen, so a failed write is tried again with the same states, and a tab closing (a relay
    // killed) meanwhile judges them again from storage. Storage down delays alerts, never drops them.
    // A state stored meanwhile by another writer (the service worker, from the relay's push of it, while this tab's
    // copy of the inbox lagged) is theirs: kept as they stored it, and told by them. This tab's own write of it, tried
    // again after it committed, is in its copy: written and told again.
    const theirs = new Set<string>();
    const changes = new Map(
      items.map((item) => [
        item.id,
        (entry: InboxEntry | undefined) => {
          const told = itemState(item);
          if (sameState(entryState(entry), told) && !sameState(entryState(this.deps.inbox.get(item.id)), told)) {
            theirs.add(item.id);
            return entry;
          }
          theirs.delete(item.id);
          const tray = placed.has(item.id) ? placed.get(item.id) : entry?.tray;
          return withAlertWorded(entry, item, this.deps.text, tray, this.deps.words?.(item));
        },
      ]),
    );
    if (changes.size > 0) await this.stored(() => this.deps.inbox.change(changes), 'Storing new alerts');
    for (const [key, ledger] of judged) this.ledgers.set(key, ledger);
    if (touched.size === 0) return;
    const ledgers = [...touched].map((key) => judged.get(key)!);
    const saved = () => this.stored(() => this.deps.ledgers.save(ledgers), 'Storing what the alerts have seen');
    this.saving = this.saving.then(saved).catch(this.failed);
    const told = items.filter((item) => !theirs.has(item.id));
    if (told.length > 0) void this.deliveries.tell(new Map(told.map((item) => [item.id, item.phase])));
  }

  /** What judging an input of this address needs: its rules, its last known state, the inbox, the person's absence. */
  private judging(input: AlertInput, now: number): JudgeContext {
    return {
      rules: this.deps.settings.rulesFor(input.network, input.principal),
      now,
      snapshot: () => this.deps.snapshot(input.principal),
      stored: (id: string) => this.deps.inbox.get(id),
      away: () => this.deps.away?.() ?? true,
    };
  }

  private readonly failed = (error: unknown): void =>
    this.deps.report?.(`Could not raise alerts: ${errorMessage(error)}`);

  /**
   * The address's ledger, or null when there is none or the one stored predates the address being added (it was
   * removed and added again): what that one remembers belongs to the earlier watch.
   */
  private ledgerOf(network: Network, principal: string, addedAt: number): AlertLedger | null {
    const existing = this.ledgers.get(ledgerKey({ network, principal }));
    return existing && existing.since >= addedAt - READD_MARGIN_MS ? existing : null;
  }

  private newLedgerFor(network: Network, principal: string, now: number): AlertLedger {
    const holdings = this.deps.snapshot(principal)?.holdings;
    return newLedger(principal, network, now, holdings ? [...holdings.tokens.keys(), ...holdings.nfts.keys()] : []);
  }
}
