/** When failed pushes say the push services are failing: at least this many in a row, over at least this long. */
export interface FailingThreshold {
  readonly pushes: number;
  readonly forMs: number;
}

/**
 * A minute of nothing but failures, five pushes at least: a push refused and tried again (2, 4, 8, 16 s later) gets
 * there alone; a burst refused in one second and taken at its next try does not.
 */
export const FAILING_PUSHES: FailingThreshold = { pushes: 5, forMs: 60_000 };

/** The run of failed pushes since the last one a push service accepted, for /health. */
export interface FailingPushes {
  /** Pushes posted and not accepted, one after the other. */
  readonly consecutive: number;
  /** When the first of them was answered (epoch ms). */
  readonly since: number;
  /** The last one's answer: "503", "429", "unreachable", "403", … */
  readonly lastAnswer: string;
}

/**
 * The push services' answers since start, by answer ("201", "503", "unreachable", "fenced", …; /metrics counts
 * them), and the failures since the last push accepted. A 404 or 410 is a device gone, not a service failing, and a
 * push the fence held back was never posted: neither counts nor ends a run. Any other answer but a 2xx is a failure,
 * a refusal (400, 403) too: a push not delivered is not delivered, whatever the cause.
 */
export class PushAnswers extends Map<string, number> {
  private run: FailingPushes | null = null;

  constructor(private readonly threshold: FailingThreshold = FAILING_PUSHES) {
    super();
  }

  /** One push answered `answer` at `at`. */
  count(answer: string, at: number): void {
    this.set(answer, (this.get(answer) ?? 0) + 1);
    if (/^2\d\d$/.test(answer)) this.run = null;
    else if (!['404', '410', 'fenced'].includes(answer))
      this.run = { consecutive: (this.run?.consecutive ?? 0) + 1, since: this.run?.since ?? at, lastAnswer: answer };
  }

  /**
   * The run of failures, once it is long enough to say the pushes are failing; null otherwise. It lasts until a push
   * is accepted, however long nothing is posted (every state given up, nothing new to tell).
   */
  failing(now: number): FailingPushes | null {
    const run = this.run;
    if (!run || run.consecutive < this.threshold.pushes || now - run.since < this.threshold.forMs) return null;
    return run;
  }
}
