import type { AlertPhase } from '../domain/alerts/alert-ledger.ts';
import { doubledWait } from '../domain/backoff.ts';
import { howShown, withDelivery, type DeliveryVia, type InboxEntry } from '../domain/alerts/inbox.ts';
import { isSummaryTag } from '../domain/text/notification-content.ts';
import type { InboxPort, WhileOpen } from '../monitor/ports.ts';
import type { RetryPolicy } from './keep-trying.ts';

/**
 * Tells the latest states of these stored alerts (each with where it goes on the tray: see domain/alerts/tray-view.ts)
 * and says how each reached the user. The service worker owns the tray and answers.
 */
export type Deliver = (told: readonly InboxEntry[], whileOpen: WhileOpen) => Promise<ReadonlyMap<string, DeliveryVia>>;

export interface DeliveriesDeps {
  readonly inbox: InboxPort;
  readonly deliver: Deliver;
  readonly whileOpen: () => WhileOpen;
  readonly now: () => number;
  /** A storage write, tried until it commits. */
  readonly stored: <T>(task: () => Promise<T>, what: string) => Promise<T>;
  readonly failed: (error: unknown) => void;
  /** How soon alerts the platform did not take are told again (they always are). */
  readonly handOverRetry?: RetryPolicy;
}

/**
 * Hands stored alerts to the platform to tell and records in the inbox how every one reached the user: inside a
 * summary, on its own, as a toast, or only in the inbox. Until recorded, an alert is told again on the next start
 * (the tray shows each state once however often it is asked: tray-view.ts).
 */
export class Deliveries {
  /** How each alert was told, recorded in the inbox once the service worker answers. */
  private recording: Promise<void> = Promise.resolve();
  /** Hand-overs that failed in a row (the service worker gone, failing or silent): the next try waits longer. */
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** The state of each alert being told, until its answer is recorded: told once, however often a recovery asks. */
  private readonly inFlight = new Map<string, AlertPhase>();

  constructor(private readonly deps: DeliveriesDeps) {}

  /**
   * Resolves once what was handed over so far is recorded; `settled()` again tells whether more came meanwhile. A try
   * again that waits for its time is not waited for.
   */
  get pending(): Promise<void> {
    return this.recording;
  }

  /**
   * How an alert was told so far, as the planner asks (alert-plan.ts): where its state being told now goes, else how
   * its last state shown reached the user (a toast counts as on its own).
   */
  readonly shownAs = (id: string): 'single' | 'summary' | null => {
    const entry = this.deps.inbox.get(id);
    // Its place on the tray (`tray`, read without a check before the first paint: looked at here).
    const tag: unknown = entry?.tray?.tag;
    if (entry?.undelivered && typeof tag === 'string') return isSummaryTag(tag) ? 'summary' : 'single';
    return howShown(entry);
  };

  /** Tells these stored states (by alert id), and records how each reached the user once the platform answers. */
  tell(phases: ReadonlyMap<string, AlertPhase>): Promise<void> {
    return this.show(phases).catch(() => undefined);
  }

  /** Tells what the inbox holds but was never recorded as told (the tab closed in between, or a hand-over failed). */
  recover(): Promise<void> {
    const waiting = this.deps.inbox
      .list()
      .filter((entry) => entry.undelivered && this.inFlight.get(entry.id) !== entry.phase);
    if (waiting.length === 0) return Promise.resolve();
    return this.show(new Map(waiting.map((entry) => [entry.id, entry.phase])));
  }

  /**
   * A hand-over the platform did not take (the service worker gone, failing or silent) is not recorded: its alerts
   * stay waiting in the inbox and are told again, as on a start; after `HAND_OVER_TRIES` failures in a row they are
   * recorded as told by the inbox alone (kept there, unread), and said so.
   */
  private show(phases: ReadonlyMap<string, AlertPhase>): Promise<void> {
    for (const [id, phase] of phases) this.inFlight.set(id, phase);
    const entries = [...phases.keys()].flatMap((id) => this.deps.inbox.get(id) ?? []);
    const answer = this.deps.deliver(entries, this.deps.whileOpen()).catch((error: unknown) => {
      this.deps.failed(error);
      return null;
    });
    const recorded = answer.then(async (via) => {
      const givenUp = via === null && this.failures + 1 >= HAND_OVER_TRIES;
      if (givenUp)
        this.deps.failed(
          new Error(`The service worker took no alert in ${HAND_OVER_TRIES} tries: they wait in the inbox, unread`),
        );
      if (via === null && !givenUp) return this.tryAgain();
      this.failures = 0;
      const at = this.deps.now();
      const changes = new Map(
        [...phases.keys()].map((id) => [
          id,
          (entry: InboxEntry | undefined) => entry && withDelivery(entry, via?.get(id) ?? 'inbox', at, phases.get(id)),
        ]),
      );
      await this.deps.stored(() => this.deps.inbox.change(changes), 'Recording how alerts were shown');
    });
    void recorded
      .catch(() => undefined)
      .then(() => {
        for (const [id, phase] of phases) if (this.inFlight.get(id) === phase) this.inFlight.delete(id);
      });
    this.recording = this.recording.then(() => recorded).catch(this.deps.failed);
    return recorded;
  }

  /** After a hand-over failed: waits (longer after each failure in a row), then tells what is still waiting. */
  private tryAgain(): void {
    const ms = doubledWait(this.deps.handOverRetry ?? HAND_OVER_RETRY, ++this.failures);
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.recover().catch(this.deps.failed);
    }, ms);
  }
}

/** The first wait before alerts the platform did not take are told again, and the longest. */
const HAND_OVER_RETRY: RetryPolicy = { firstMs: 1000, maxMs: 30_000 };
/** Hand-overs failed in a row before their alerts are left to the inbox (1 + 2 + 4 + 8 + 16 s of waits). */
const HAND_OVER_TRIES = 6;
