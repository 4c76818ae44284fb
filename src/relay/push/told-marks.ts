import type { Log } from '../log.ts';
import { markTold, type QueuedSend } from '../storage/deliveries.ts';
import type { Database } from '../storage/sql.ts';
import { WrittenUpTo } from '../storage/written-up-to.ts';

/**
 * How long the marks of accepted pushes gather before they are written. Written at once, a block's ~1,000 pushes a
 * second cost ~190 statements a second at 10,000 devices (docs/relay-at-scale.md); gathered, about one per GATHER_MS.
 */
const GATHER_MS = 50;

/**
 * The sender's told marks: gathered for GATHER_MS, and those accepted while one is written go together in the next
 * (one statement for any number). Until its mark is written a push accepted would be sent once more after a SIGKILL:
 * the window is that pause and that one statement (the device shows a state once however often it comes).
 */
export class ToldMarks {
  private told: QueuedSend[] = [];
  /** The marks being written, null when none are. */
  writing: Promise<void> | null = null;
  private readonly count = new WrittenUpTo();

  constructor(
    private readonly db: Database,
    private readonly now: () => number,
    /** How long to wait before writing marks the database refused again. */
    private readonly backoffMs: number,
    /** Whether its sender stopped: marks refused then are left (the states are sent once more after a restart). */
    private readonly stopped: () => boolean,
    private readonly log?: Log,
  ) {}

  /** The push service accepted it. */
  add(send: QueuedSend): void {
    this.told.push(send);
    this.count.handedOver();
    this.write();
  }

  /**
   * Resolves once every mark added before the call is written (or left, its sender stopping); marks added after it
   * are not waited for (under steady traffic the writer is never idle).
   */
  async written(): Promise<void> {
    await this.count.written(() => this.writing !== null);
  }

  private write(): void {
    if (this.writing) return;
    this.writing = new Promise((resolve) => setTimeout(resolve, GATHER_MS))
      .then(() => this.writeAll())
      .finally(() => {
        this.writing = null;
        // Stopped with marks the database refused: left (sent once more after a restart), never tried for ever.
        if (this.told.length > 0 && !this.stopped()) this.write();
        else this.count.attemptEnded();
      });
  }

  private async writeAll(): Promise<void> {
    while (this.told.length > 0) {
      const batch = this.told;
      const upTo = this.count.upTo;
      this.told = [];
      try {
        await markTold(this.db.within('alert-path'), batch, this.now());
        this.count.storedUpTo(upTo);
      } catch (error) {
        this.count.attemptEnded();
        this.log?.error('told marks not stored', { pushes: batch.length, message: String(error) });
        // Stopping: left queued in the table, sent once more after a restart (the Topic replaces an undelivered
        // copy). Else written again after a pause: until then a restart would repeat them.
        if (this.stopped()) return;
        this.told = [...batch, ...this.told];
        await new Promise((resolve) => setTimeout(resolve, this.backoffMs));
      }
    }
  }
}
