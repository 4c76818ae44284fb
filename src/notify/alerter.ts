import {
  isNews,
  ledgerKey,
  newLedger,
  pendingBeforeWatch,
  lowerFloor,
  raiseFloor,
  record,
  subjectOf,
  wasTold,
  withKnownAssets,
  type AlertLedger,
  type AlertPhase,
} from '../domain/alert-ledger.ts';
import {
  alertId,
  emptyPlanState,
  noticeItems,
  planNotices,
  type AlertItem,
  type PlanLimits,
} from '../domain/alert-plan.ts';
import { judge, type AlertRules } from '../domain/alert-rules.ts';
import {
  addressPagePath,
  alertBody,
  alertTitle,
  noticeContent,
  type OnScreen,
  shownOnScreen,
  storedContents,
  type NotificationContent,
  type TextContext,
} from '../domain/alert-text.ts';
import { howShown, withAlert, withDelivery, type DeliveryVia, type InboxEntry } from '../domain/inbox.ts';
import type { Network } from '../domain/network.ts';
import type { Activity, AddressSnapshot, StxBalance } from '../domain/snapshot.ts';
import { txEffect } from '../domain/tx-effect.ts';
import type { ActivitySink, ReorgScope } from '../monitor/network-monitor.ts';
import type { AlertLedgerPort, AlertRulesPort, InboxPort, WhileOpen } from '../monitor/ports.ts';
import type { StakingChange } from '../monitor/staking-keeper.ts';
import { isStakingLock, judgeStaking } from './staking-alerts.ts';

/** Shows one notification (or toast); says how it reached the user. */
export type Deliver = (content: NotificationContent, whileOpen: WhileOpen) => Promise<DeliveryVia>;

export interface AlerterDeps {
  readonly ledgers: AlertLedgerPort;
  readonly inbox: InboxPort;
  readonly settings: AlertRulesPort;
  /** The watched entry of a principal (its label and when it was added), or undefined when no longer watched. */
  readonly watched: (network: Network, principal: string) => { readonly addedAt: number } | undefined;
  /** Its last known state, for the assets it already holds (the unsolicited guard). */
  readonly snapshot: (principal: string) => AddressSnapshot | undefined;
  readonly text: TextContext;
  readonly deliver: Deliver;
  /** The notifications on screen now (none where the platform cannot tell). */
  readonly onScreen?: () => Promise<readonly OnScreen[]>;
  /**
   * Whether the person was away from the app just before now (closed, hidden): a catch-up then reads "While you
   * were away". Taken as so where the host cannot tell.
   */
  readonly away?: () => boolean;
  readonly now?: () => number;
  readonly limits?: PlanLimits;
  readonly report?: (problem: string) => void;
}

type Input =
  | {
      kind: 'activities';
      network: Network;
      principal: string;
      activities: readonly Activity[];
      source: 'live' | 'sync';
    }
  | {
      kind: 'baseline';
      network: Network;
      principal: string;
      activities: readonly Activity[];
      height: number | null;
      pendingBefore?: number | null;
    }
  | {
      kind: 'reverted';
      network: Network;
      principal: string;
      activities: readonly Activity[];
      scope: ReorgScope | undefined;
    }
  | { kind: 'balance'; network: Network; principal: string; before: StxBalance | null; after: StxBalance }
  | { kind: 'forked'; network: Network; principal: string; height: number }
  | { kind: 'staking'; network: Network; principal: string; change: StakingChange };

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
  private queue: Input[] = [];
  private running: Promise<void> | null = null;
  /**
   * Ledger saves and notifications of judged batches, each in order, while the next batch is judged: a second
   * address's alert for the same block does not wait for the first one's round trip to the service worker.
   */
  private saving: Promise<void> = Promise.resolve();
  /** How each alert was shown, recorded in the inbox once the service worker answers. */
  private recording: Promise<void> = Promise.resolve();
  /** How alerts handed to the service worker are being shown, until their delivery is recorded in the inbox. */
  private readonly inFlight = new Map<string, { as: 'single' | 'summary'; phase: AlertPhase }>();
  private plan = emptyPlanState();
  private readonly now: () => number;

  constructor(private readonly deps: AlerterDeps) {
    this.now = deps.now ?? Date.now;
    this.ready = this.prepare();
  }

  /**
   * Reads the ledgers and the inbox, then shows what was stored but not shown (the previous tab closed in
   * between). The inbox is read again because this tab may have followed another until now, and its copy can lag
   * behind that tab's last writes.
   */
  private async prepare(): Promise<void> {
    try {
      this.ledgers = await this.deps.ledgers.load();
    } catch (error) {
      this.deps.report?.(`Could not read what the alerts have seen: ${describe(error)}`);
    }
    try {
      await this.deps.inbox.load();
      await this.recover();
    } catch (error) {
      this.deps.report?.(`Could not show the alerts left unshown: ${describe(error)}`);
    }
  }

  /** On start: once ready, looks at the last known snapshots for anything stored but never judged. */
  async start(snapshots: readonly AddressSnapshot[]): Promise<void> {
    await this.ready;
    for (const snapshot of snapshots)
      this.activities(snapshot.network, snapshot.principal, [...snapshot.recent, ...snapshot.pending], 'sync');
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
      const { saving, recording } = this;
      await Promise.all([saving, recording]);
      if (!this.running && saving === this.saving && recording === this.recording) return;
    }
  }

  private push(input: Input): void {
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
        this.deps.report?.(`Could not raise alerts: ${describe(error)}`);
      }
    }
    this.running = null;
  }

  private async process(batch: readonly Input[]): Promise<void> {
    const now = this.now();
    const items: AlertItem[] = [];
    const touched = new Map<string, AlertLedger>();
    for (const given of batch) {
      const entry = this.deps.watched(given.network, given.principal);
      if (!entry) continue;
      const key = ledgerKey(given);
      const kept = touched.get(key) ?? this.ledgerOf(given.network, given.principal, entry.addedAt);
      // Before its first sync an address has no history to re-judge.
      if (!kept && given.kind === 'forked') continue;
      const before = kept ?? this.newLedgerFor(given.network, given.principal, now);
      // An address with no ledger met by a sync (its ledger was lost, or the address was added again): what it
      // finds is the address's baseline, as on a first sync. Nothing known before is told again.
      const input: Input =
        !kept && given.kind === 'activities' && given.source === 'sync'
          ? { ...given, kind: 'baseline', height: this.deps.snapshot(given.principal)?.syncedHeight ?? null }
          : given;
      const after = this.judgeInput(input, before, now, items);
      if (after !== before) touched.set(key, after);
      this.ledgers.set(key, after);
    }
    if (touched.size === 0) return;
    // The inbox first (it is also the outbox), then the ledger: a tab closing between them re-judges, never loses.
    await this.deps.inbox.change(
      new Map(
        items.map((item) => [
          item.id,
          (entry: InboxEntry | undefined) =>
            withAlert(entry, item, {
              title: alertTitle(item, this.deps.text),
              body: alertBody(item, this.deps.text),
              path: addressPagePath(item.principal, item.activity?.txId ?? entry?.txId ?? undefined),
            }),
        ]),
      ),
    );
    const ledgers = [...touched.values()];
    this.saving = this.saving.then(() => this.deps.ledgers.save(ledgers)).catch(this.failed);
    const planned = planNotices(items, this.plan, now, this.shownAs, this.deps.limits);
    this.plan = planned.state;
    for (const notice of planned.notices)
      for (const item of noticeItems(notice))
        this.inFlight.set(item.id, { as: notice.kind === 'single' ? 'single' : 'summary', phase: item.phase });
    const contents = planned.notices.map((notice) => noticeContent(notice, this.deps.text));
    void this.show(contents, new Map(items.map((item) => [item.id, item.phase]))).catch(() => undefined);
  }

  private readonly failed = (error: unknown): void => this.deps.report?.(`Could not raise alerts: ${describe(error)}`);

  /**
   * Shows each notification and records how every alert reached the user: inside a summary, on its own, as a
   * toast, or only in the inbox (an alert in `ids` that no notification carries).
   */
  private show(
    contents: readonly NotificationContent[],
    phases: ReadonlyMap<string, AlertPhase>,
    delivered = new Map<string, DeliveryVia>(),
  ): Promise<void> {
    const whileOpen = this.deps.settings.get().whileOpen;
    // Handed over in order at once; the answers (how each was shown) are awaited after, while the next batch goes.
    const answers = contents.map((content) => this.deps.deliver(content, whileOpen));
    const recorded = Promise.all(answers).then(async (vias) => {
      contents.forEach((content, index) => {
        const via = vias[index]!;
        for (const id of content.data.ids) delivered.set(id, via !== 'inbox' && content.data.summary ? 'summary' : via);
      });
      for (const id of phases.keys()) if (!delivered.has(id)) delivered.set(id, 'inbox');
      const at = this.now();
      try {
        await this.deps.inbox.change(
          new Map(
            [...delivered].map(([id, via]) => [
              id,
              (entry: InboxEntry | undefined) => entry && withDelivery(entry, via, at, phases.get(id)),
            ]),
          ),
        );
      } finally {
        for (const id of delivered.keys())
          if (this.inFlight.get(id)?.phase === phases.get(id)) this.inFlight.delete(id);
      }
    });
    this.recording = this.recording.then(() => recorded).catch(this.failed);
    return recorded;
  }

  /** Judges one input against the ledger; returns the ledger after it and adds what is to be told to `items`. */
  private judgeInput(input: Input, start: AlertLedger, now: number, items: AlertItem[]): AlertLedger {
    const rules = this.deps.settings.rulesFor(input.network, input.principal);
    const item = (
      subject: string,
      phase: AlertPhase,
      activity: Activity | null,
      amount: bigint | null = null,
      recalled?: AlertItem['recalled'],
    ) => {
      const id = alertId(input.network, input.principal, subject);
      // Already stored in this state: a tab closed between storing it and saving the ledger. recover() shows it.
      if (this.deps.inbox.get(id)?.phase === phase) return;
      items.push({
        id,
        network: input.network,
        principal: input.principal,
        subject,
        phase,
        activity,
        amount,
        at: now,
        catchUp: input.kind === 'activities' && input.source === 'sync' && (this.deps.away?.() ?? true),
        ...(recalled ? { recalled } : {}),
      });
    };
    let ledger = start;
    if (input.kind === 'forked') return lowerFloor(ledger, input.height - 1);
    if (input.kind === 'staking')
      return judgeStaking(input.change, ledger, rules, (subject, phase, amount) => item(subject, phase, null, amount));
    if (input.kind === 'baseline') {
      // History is what was mined at or below the first sync's height, and what was pending then. A transaction met
      // live since the watch began, or mined above that height while the sync ran, is news judged as any other.
      const height = input.height;
      const isHistory = (activity: Activity) =>
        ledger.seen[activity.txId] === undefined &&
        (activity.blockHeight === null || height === null || activity.blockHeight <= height);
      const followed = input.activities.filter((activity) => !isHistory(activity));
      for (const activity of input.activities.filter(isHistory)) {
        const state = subjectOf(activity);
        if (isNews(ledger, state.subject, state.phase, activity.blockHeight))
          ledger = record(ledger, state.subject, state.phase, activity.blockHeight, false);
      }
      ledger = raiseFloor(ledger, input.height);
      if (input.pendingBefore != null) ledger = { ...ledger, pendingBefore: input.pendingBefore };
      return followed.length > 0
        ? // Met as the address was being added: news of now, not a catch-up of an absence.
          this.judgeInput({ ...input, kind: 'activities', activities: followed, source: 'live' }, ledger, now, items)
        : ledger;
    }
    if (input.kind === 'balance') {
      const locking = input.after.locked > 0n;
      const subject = locking ? `lock:${input.after.unlockBurnHeight}` : `unlock:${input.before?.unlockBurnHeight}`;
      const phase = locking ? 'locked' : 'unlocked';
      if (!isNews(ledger, subject, phase, null)) return ledger;
      const tell = !rules.muted && rules.stacking;
      ledger = record(ledger, subject, phase, null, tell);
      if (tell) item(subject, phase, null, locking ? input.after.locked : (input.before?.locked ?? 0n));
      return ledger;
    }
    if (input.kind === 'reverted') {
      for (const activity of input.activities) {
        if (!isNews(ledger, activity.txId, 'reverted', null)) continue;
        const verdict = judge(activity, 'reverted', rules, {
          principal: input.principal,
          knownAssets: new Set(ledger.knownAssets),
          alertedBefore: wasTold(ledger, activity.txId),
        });
        ledger = record(ledger, activity.txId, 'reverted', null, verdict.alert);
        if (verdict.alert) item(activity.txId, 'reverted', activity);
      }
      return input.scope ? this.revertBeyondHistory(input, input.scope, ledger, rules, item) : ledger;
    }
    for (const activity of input.activities) {
      const state = subjectOf(activity);
      if (!isNews(ledger, state.subject, state.phase, activity.blockHeight)) continue;
      if (pendingBeforeWatch(ledger, state.subject, state.phase, activity.time)) {
        ledger = record(ledger, state.subject, state.phase, null, false);
        continue;
      }
      // What was mined before the address was watched sits at or below the ledger's floor (its first sync's height):
      // isNews said so. Chain positions decide, never timestamps: block times lag and device clocks drift.
      const verdict = judge(activity, state.phase, rules, {
        principal: input.principal,
        knownAssets: new Set([...ledger.knownAssets, ...heldBefore(this.deps.snapshot(input.principal), activity)]),
        alertedBefore: wasTold(ledger, state.subject),
      });
      ledger = record(ledger, state.subject, state.phase, activity.blockHeight, verdict.alert);
      if (txEffect(activity, input.principal).signed && activity.assets)
        ledger = withKnownAssets(
          ledger,
          activity.assets.map((change) => change.assetIdentifier),
        );
      if (verdict.alert) item(state.subject, state.phase, activity);
    }
    return ledger;
  }

  /**
   * Reverts what was told of transactions mined within the heights the node's history was read over that the node
   * no longer lists, though the bounded snapshot let go of them: their words come from what the inbox told.
   */
  private revertBeyondHistory(
    input: { network: Network; principal: string },
    scope: ReorgScope,
    start: AlertLedger,
    rules: AlertRules,
    item: (subject: string, phase: AlertPhase, activity: null, amount: null, recalled: AlertItem['recalled']) => void,
  ): AlertLedger {
    let ledger = scope.forkFrom !== null ? lowerFloor(start, scope.forkFrom - 1) : start;
    for (const [subject, seen] of Object.entries(start.seen)) {
      if (seen.phase !== 'confirmed' && seen.phase !== 'failed') continue;
      if (seen.height === null || (scope.coveredAbove !== null && seen.height <= scope.coveredAbove)) continue;
      if (scope.present.has(subject)) continue;
      const told = seen.told && !rules.muted;
      ledger = record(ledger, subject, 'reverted', null, told);
      const before = this.deps.inbox.get(alertId(input.network, input.principal, subject));
      if (told && before) item(subject, 'reverted', null, null, { title: before.title, body: before.body });
    }
    return ledger;
  }

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

  /** How an alert was shown so far: the inbox records every delivery, across reloads and tabs. */
  private readonly shownAs = (id: string) => this.inFlight.get(id)?.as ?? howShown(this.deps.inbox.get(id));

  /**
   * Shows what the inbox holds but was never shown (the tab closed in between). An alert already on screen was
   * shown, only not recorded (the tab closed just after): it is recorded, not shown again.
   */
  private async recover(): Promise<void> {
    const waiting = this.deps.inbox.list().filter((entry) => entry.undelivered);
    if (waiting.length === 0) return;
    const shown = shownOnScreen(waiting, (await this.deps.onScreen?.().catch(() => [])) ?? []);
    const left = waiting.filter((entry) => !shown.has(entry.id));
    await this.show(
      storedContents(left, this.shownAs),
      new Map(waiting.map((entry) => [entry.id, entry.phase])),
      shown,
    );
  }
}

/**
 * Assets the address holds more of than this transaction brought: it held them before (or asked for more since).
 * What the spam guard lets through besides what the ledger remembers.
 */
function heldBefore(snapshot: AddressSnapshot | undefined, activity: Activity): string[] {
  const holdings = snapshot?.holdings;
  if (!holdings) return [];
  return (activity.assets ?? [])
    .filter((change) =>
      change.type === 'ft'
        ? (holdings.tokens.get(change.assetIdentifier) ?? 0n) > change.net
        : BigInt(holdings.nfts.get(change.assetIdentifier) ?? 0) > change.net,
    )
    .map((change) => change.assetIdentifier);
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
