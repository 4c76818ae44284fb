/**
 * Whether a node has the v3 principal routes (API 9.x) or only the v1/v2 ones of an older node, learned once from the
 * first v3 answer (a 404 means an older API) or remembered from an earlier run.
 */
export class V3Routes {
  /** null until the first v3 call tells (or an earlier run told). */
  private v3: boolean | null;
  /** The one v3 call in flight that will tell; the others wait for it rather than each probing. */
  private probe: { done: Promise<void>; settle: () => void } | null = null;

  constructor(
    known: boolean | null | undefined,
    /** Called once when a probe tells whether the node has the v3 routes. */
    private readonly onLearned?: (v3: boolean) => void,
  ) {
    this.v3 = known ?? null;
  }

  get known(): boolean | null {
    return this.v3;
  }

  /**
   * Whether to try a v3 route: yes once the node is known to have them, no once known not to; while unknown, the
   * first caller probes and every other waits for its answer (one 404 per node, not one per address).
   */
  async worthTrying(): Promise<boolean> {
    while (this.v3 === null && this.probe) await this.probe.done;
    if (this.v3 === null) {
      let settle = () => {};
      const done = new Promise<void>((resolve) => (settle = resolve));
      this.probe = { done, settle };
    }
    return this.v3 !== false;
  }

  /**
   * Runs a v3 request; its answer tells whether the node has the v3 routes (a 404 means an older API; a 429 or a
   * server error tells nothing). The waiting callers are released once it told, or failed to.
   */
  async probing<T extends { response: Response }>(request: () => Promise<T>): Promise<T> {
    try {
      const answer = await request();
      const status = answer.response.status;
      if (this.v3 === null && status !== 429 && status < 500) {
        this.v3 = status !== 404;
        this.onLearned?.(this.v3);
      }
      return answer;
    } finally {
      const probe = this.probe;
      this.probe = null;
      probe?.settle();
    }
  }

  /** Whether the node answered as an older API (its v3 routes 404): the caller falls back to v1/v2. */
  isOldNode(response: Response): boolean {
    return this.v3 === false && response.status === 404;
  }
}
