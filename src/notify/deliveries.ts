import type { AlertPhase } from '../domain/alerts/alert-ledger.ts';
import { doubledWait } from '../domain/backoff.ts';
import { noticeItems, type Notice } from '../domain/alerts/alert-plan.ts';
import { howShown, withDelivery, type DeliveryVia, type InboxEntry } from '../domain/alerts/inbox.ts';
import type { NotificationContent } from '../domain/text/notification-content.ts';
import { storedContents } from '../domain/text/notification-recovery.ts';
import type { InboxPort, WhileOpen } from '../monitor/ports.ts';
import type { RetryPolicy } from './keep-trying.ts';

/** Shows one notification (or toast); says how it reached the user. */
export type Deliver = (content: NotificationContent, whileOpen: WhileOpen) => Promise<DeliveryVia>;

/** Which of the waiting alerts the platform shows already (notification-recovery.ts's `shownOnScreen` decides). */
export type AlreadyShown = (waiting: readonly InboxEntry[]) => Promise<ReadonlyMap<string, DeliveryVia>>;

export interface DeliveriesDeps {
  readonly inbox: InboxPort;
  readonly deliver: Deliver;
  readonly whileOpen: () => WhileOpen;
  /**
   * Which of these alerts, stored but not recorded as shown, the platform shows already, and how (none where it
   * cannot tell): the tab that showed them closed before it recorded them.
   */
  readonly alreadyShown?: AlreadyShown;
  readonly now: () => number;
  /** A storage write, tried until it commits. */
  readonly stored: <T>(task: () => Promise<T>, what: string) => Promise<T>;
  readonly failed: (error: unknown) => void;
  /** How soon alerts the platform did not take are shown again (they always are). */
  readonly handOverRetry?: RetryPolicy;
}

/**
 * Hands notifications to the platform and records in the inbox how every alert reached the user: inside a summary,
 * on its own, as a toast, or only in the inbox. Until recorded, a shown alert would be shown again on the next
 * start; in between, the planner asks here how it is being shown.
 */
export class Deliveries {
  /** How each alert was shown, recorded in the inbox once the service worker answers. */
  private recording: Promise<void> = Promise.resolve();
  /** How alerts handed to the service worker are being shown, until their delivery is recorded in the inbox. */
  private readonly inFlight = new Map<string, { as: 'single' | 'summary'; phase: AlertPhase }>();
  /** Hand-overs that failed in a row (the service worker gone, failing or silent): the next try waits longer. */
  private failures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** Recoveries run one at a time: each reads what is still waiting once the one before has handed its own over. */
  private recovering: Promise<void> = Promise.resolve();

  constructor(private readonly deps: DeliveriesDeps) {}

  /**
   * Resolves once what was handed over so far is recorded; `settled()` again tells whether more came meanwhile. A try
   * again that waits for its time is not waited for.
   */
  get pending(): Promise<void> {
    return this.recording;
  }

  /** How an alert was shown so far: the inbox records every delivery, across reloads and tabs. */
  readonly shownAs = (id: string): ReturnType<typeof howShown> =>
    this.inFlight.get(id)?.as ?? howShown(this.deps.inbox.get(id));

  /** The planned notices, each carrying its alerts: shown in order, and recorded once the platform answers. */
  planned(
    notices: readonly Notice[],
    contents: readonly NotificationContent[],
    phases: ReadonlyMap<string, AlertPhase>,
  ): void {
    for (const notice of notices)
      for (const item of noticeItems(notice))
        this.inFlight.set(item.id, { as: notice.kind === 'single' ? 'single' : 'summary', phase: item.phase });
    void this.show(contents, phases).catch(() => undefined);
  }

  /**
   * Shows what the inbox holds but was never shown (the tab closed in between). An alert already on screen was
   * shown, only not recorded (the tab closed just after): it is recorded, not shown again.
   */
  recover(): Promise<void> {
    const turn = this.recovering.then(() => this.recoverWaiting());
    this.recovering = turn.catch(() => undefined);
    return turn;
  }

  private async recoverWaiting(): Promise<void> {
    const asked = this.deps.inbox.list().filter((entry) => this.waiting(entry));
    if (asked.length === 0) return;
    const onScreen = (await this.deps.alreadyShown?.(asked).catch(() => null)) ?? new Map<string, DeliveryVia>();
    // Read after the answer: a batch may have stored or handed over states meanwhile (a state asked about and since
    // replaced is not taken as shown).
    const waiting = this.deps.inbox.list().filter((entry) => this.waiting(entry));
    const before = new Map(asked.map((entry) => [entry.id, entry]));
    const same = (entry: InboxEntry) =>
      before.get(entry.id)?.phase === entry.phase && before.get(entry.id)?.title === entry.title;
    const shown = new Map(
      waiting.flatMap((entry) =>
        onScreen.has(entry.id) && same(entry) ? [[entry.id, onScreen.get(entry.id)!] as const] : [],
      ),
    );
    const left = waiting.filter((entry) => !shown.has(entry.id));
    // What the screen shows but no record says yet counts as shown: a side of a pair joins it there.
    const contents = storedContents(left, (id) => {
      const via = shown.get(id);
      return via === undefined ? this.shownAs(id) : via === 'summary' ? 'summary' : 'single';
    });
    const phases = new Map(waiting.map((entry) => [entry.id, entry.phase]));
    for (const content of contents)
      for (const id of content.data.ids)
        this.inFlight.set(id, {
          as: content.data.summary || content.retell ? 'summary' : 'single',
          phase: phases.get(id)!,
        });
    await this.show(contents, phases, shown);
  }

  /** Stored, not shown, and not being handed over now (its answer records it). */
  private readonly waiting = (entry: InboxEntry): boolean =>
    entry.undelivered && this.inFlight.get(entry.id)?.phase !== entry.phase;

  /**
   * Shows each notification and records how every alert reached the user (an alert in `phases` that no notification
   * carries reached the inbox only). A notification the platform did not take (the service worker gone, failing or
   * silent) is not recorded: its alerts stay waiting in the inbox and are tried again, as on a start; after
   * `HAND_OVER_TRIES` failures in a row they are recorded as told by the inbox alone (kept there, unread), and said so.
   */
  private show(
    contents: readonly NotificationContent[],
    phases: ReadonlyMap<string, AlertPhase>,
    delivered = new Map<string, DeliveryVia>(),
  ): Promise<void> {
    const whileOpen = this.deps.whileOpen();
    // Handed over in order at once; the answers (how each was shown) are awaited after, while the next batch goes.
    const answers = contents.map((content) =>
      this.deps.deliver(content, whileOpen).catch((error: unknown) => {
        this.deps.failed(error);
        return null;
      }),
    );
    const recorded = Promise.all(answers).then(async (vias) => {
      const unshown = new Set<string>();
      contents.forEach((content, index) => {
        const via = vias[index];
        for (const id of content.data.ids)
          if (via === null || via === undefined) unshown.add(id);
          else delivered.set(id, via !== 'inbox' && content.data.summary ? 'summary' : via);
      });
      for (const id of delivered.keys()) unshown.delete(id);
      const givenUp = unshown.size > 0 && this.failures + 1 >= HAND_OVER_TRIES;
      if (givenUp)
        this.deps.failed(
          new Error(`The service worker took no alert in ${HAND_OVER_TRIES} tries: they wait in the inbox, unread`),
        );
      for (const id of phases.keys())
        if (!delivered.has(id) && (givenUp || !unshown.has(id))) delivered.set(id, 'inbox');
      const at = this.deps.now();
      const changes = new Map(
        [...delivered].map(([id, via]) => [
          id,
          (entry: InboxEntry | undefined) => entry && withDelivery(entry, via, at, phases.get(id)),
        ]),
      );
      try {
        if (changes.size > 0)
          await this.deps.stored(() => this.deps.inbox.change(changes), 'Recording how alerts were shown');
      } finally {
        for (const id of [...delivered.keys(), ...unshown])
          if (this.inFlight.get(id)?.phase === phases.get(id)) this.inFlight.delete(id);
      }
      if (unshown.size > 0 && !givenUp) this.tryAgain();
      else this.failures = 0;
    });
    this.recording = this.recording.then(() => recorded).catch(this.deps.failed);
    return recorded;
  }

  /**
   * After a hand-over failed: waits (longer after each failure in a row), then shows what is still waiting, as a
   * start does, minus what the platform shows by now. One wait at a time.
   */
  private tryAgain(): void {
    const ms = doubledWait(this.deps.handOverRetry ?? HAND_OVER_RETRY, ++this.failures);
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.recover().catch(this.deps.failed);
    }, ms);
  }
}

/** The first wait before alerts the platform did not take are shown again, and the longest. */
const HAND_OVER_RETRY: RetryPolicy = { firstMs: 1000, maxMs: 30_000 };
/** Hand-overs failed in a row before their alerts are left to the inbox (1 + 2 + 4 + 8 + 16 s of waits). */
const HAND_OVER_TRIES = 6;
