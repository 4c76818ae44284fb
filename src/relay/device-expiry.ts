import type { EngineControl } from './engine/control.ts';
import type { Log } from './log.ts';
import { deleteExpiredDevices } from './storage/devices.ts';
import type { Database } from './storage/sql.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** How often expired devices are looked for; a sweep also runs at start. */
export const EXPIRY_SWEEP_MS = 3_600_000;

/**
 * Forgets devices that will never be reached again: a push subscription past its `expirationTime`, or no check-in
 * (a registration or a catch-up; the app does both on every start) for `maxIdleDays`. Their watches go with them,
 * and the engine stops following what no device follows any more. Each sweep also drops the new-principal and
 * new-device counts (caps.ts) that are more than an hour old.
 */
export class DeviceExpiry {
  private timer: ReturnType<typeof setInterval> | null = null;
  private sweeping: Promise<number> | null = null;
  /** A sweep asked for while one was under way: it runs after it, with the clock of then (at most one waits). */
  private next: Promise<number> | null = null;

  constructor(
    private readonly deps: {
      readonly db: Database;
      readonly engine: EngineControl;
      readonly maxIdleDays: number;
      readonly log: Log;
      readonly now?: () => number;
    },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sweep().catch((error: unknown) => this.failed(error)), EXPIRY_SWEEP_MS);
    this.timer.unref();
    void this.sweep().catch((error: unknown) => this.failed(error));
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves once the sweeps under way or waiting have ended. */
  async idle(): Promise<void> {
    await this.next?.catch(() => 0);
    await this.sweeping?.catch(() => 0);
  }

  /**
   * Deletes the devices expired now and tells the engine; how many. One sweep at a time: one asked for while another
   * runs goes after it, since that one judged by an earlier clock.
   */
  sweep(): Promise<number> {
    if (this.sweeping)
      return (this.next ??= this.sweeping
        .catch(() => 0)
        .then(() => {
          this.next = null;
          return this.sweep();
        }));
    this.sweeping = this.expire().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async expire(): Promise<number> {
    const now = (this.deps.now ?? Date.now)();
    // Its cost grows with the devices expired at once (after a long stop, many): no time limit (postgres-limits.ts).
    const ids = await this.deps.db.within('maintenance').transaction(async (sql) => {
      // The hour's additions of devices that added nothing since (a device's own are pruned as it adds more), and
      // the hour's new devices per client when no new device came since to prune them: no row outlives two hours.
      await sql.query('DELETE FROM principal_additions WHERE at <= $1', [now - HOUR_MS]);
      await sql.query('DELETE FROM device_additions WHERE at <= $1', [now - HOUR_MS]);
      return deleteExpiredDevices(sql, now, this.deps.maxIdleDays * DAY_MS);
    });
    for (const id of ids) await this.deps.engine.deviceDeleted(id);
    if (ids.length > 0) this.deps.log.info('devices expired', { count: ids.length });
    return ids.length;
  }

  private failed(error: unknown): void {
    this.deps.log.warn('device expiry failed', { message: String(error) });
  }
}
