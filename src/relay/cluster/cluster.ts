import type { RelayEngine } from '../engine/relay-engine.ts';
import { keepTrying } from '../../notify/keep-trying.ts';
import type { Log } from '../log.ts';
import type { PushSender } from '../push/sender.ts';
import { allDevices, allWatches, findDevice, watchesOf, type StoredWatch } from '../storage/devices.ts';
import type { Database } from '../storage/sql.ts';
import { PartitionLeases } from './partition-leases.ts';
import { partitionOf } from './partitions.ts';

/** Where instances tell each other of a device registered, changed or deleted. */
const CHANNEL = 'relay_devices';

interface DeviceNews {
  /** The instance that took the request (it has applied it already). */
  readonly from: string;
  readonly kind: 'changed' | 'deleted';
  readonly id: string;
}

/**
 * This instance among several on one PostgreSQL database. The partition leases say which devices it judges for and
 * hand it the queued states nobody alive sends; a device's PUT or DELETE on any instance reaches the others by
 * `NOTIFY relay_devices` (each re-reads the device: every instance follows every device's principals, and its
 * owner judges for it). A notification missed while the listening connection was down is made up for by reading
 * every device again once it is back.
 */
export class Cluster {
  readonly leases: PartitionLeases;
  private applying: Promise<void> = Promise.resolve();
  private unlisten: (() => Promise<void>) | null = null;
  private stopping = false;

  constructor(
    private readonly db: Database,
    readonly instance: string,
    private readonly engine: () => RelayEngine,
    private readonly sender: PushSender,
    private readonly log: Log,
  ) {
    const inParts = (ids: readonly string[], parts: readonly number[]) =>
      ids.filter((id) => parts.includes(partitionOf(id)));
    this.leases = new PartitionLeases(
      db,
      instance,
      {
        ready: () => this.engine().atTip(),
        gained: async (parts) => {
          // The last owner may have judged a block this instance has not taken yet: taken first.
          await this.engine().catchUp();
          await this.engine().adopt(inParts(this.engine().known(), parts));
        },
        lost: async (parts) => {
          await this.engine().release(inParts(this.engine().judged(), parts));
          // Its queued states are the new owner's to send, in order with those it stores.
          await this.sender.handOver((id) => parts.includes(partitionOf(id)));
        },
        claimed: (sends) => this.sender.enqueue(sends),
        lapsed: (claims) => this.sender.keepClaimed(claims),
        renewed: () => this.sender.resume(),
      },
      log,
    );
  }

  /** Whether this instance judges for the device now. */
  owns(deviceId: string): boolean {
    return this.leases.ownsPartition(partitionOf(deviceId));
  }

  /** Listens to the other instances, then takes its first share of the partitions (renewed from then on). */
  async start(): Promise<void> {
    if (!this.db.listen) throw new Error('several instances need PostgreSQL (--database-url)');
    this.unlisten = await this.db.listen(
      CHANNEL,
      (payload) => this.heard(payload),
      () => this.apply(() => this.resync()),
    );
    await this.leases.start();
  }

  /** Tells the other instances of a device this one registered, changed or deleted (it applied it itself). */
  async tell(kind: DeviceNews['kind'], id: string): Promise<void> {
    const news: DeviceNews = { from: this.instance, kind, id };
    await this.db.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify(news)]);
  }

  status(): Record<string, unknown> {
    return { ...this.leases.status(), devices: this.engine().judged().length };
  }

  /** Takes nothing more (the relay is stopping); its leases and claims stay until `stop`. */
  halt(): Promise<void> {
    return this.leases.halt();
  }

  /** Lets go of its leases and claims (after the sender stopped), so others take over at their next renewal. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.unlisten?.();
    await this.applying;
    await this.leases.stop();
  }

  private heard(payload: string): void {
    let news: DeviceNews;
    try {
      news = JSON.parse(payload) as DeviceNews;
    } catch {
      return;
    }
    if (news.from === this.instance || typeof news.id !== 'string') return;
    this.apply(() => (news.kind === 'deleted' ? this.deleted(news.id) : this.changed(news.id)));
  }

  /**
   * One at a time, in the order heard (a PUT then a DELETE of one device end deleted), each tried until it works or
   * the instance stops: news left unapplied would leave a device unfollowed, or judged here after it was deleted, until
   * the next reconnection (a resync cut by a database that was back only in part, its pooled connections still silent).
   */
  private apply(work: () => Promise<void>): void {
    const report = (problem: string) => this.log.warn('device news not applied', { message: problem });
    this.applying = this.applying.then(() =>
      keepTrying(() => (this.stopping ? Promise.resolve() : work()), 'Applying device news', report),
    );
  }

  private async changed(id: string): Promise<void> {
    const device = await findDevice(this.db, id);
    if (!device) return this.deleted(id);
    this.sender.subscribed(id, device.subscription);
    await this.engine().deviceChanged(id, await watchesOf(this.db, id));
  }

  private async deleted(id: string): Promise<void> {
    this.sender.forget(id);
    await this.engine().deviceDeleted(id);
  }

  /** Every device read again: what changed while this instance could not hear is applied. */
  private async resync(): Promise<void> {
    const devices = await allDevices(this.db);
    const watches = new Map<string, StoredWatch[]>();
    for (const watch of await allWatches(this.db))
      watches.set(watch.deviceId, [...(watches.get(watch.deviceId) ?? []), watch]);
    const engine = this.engine();
    const present = new Set(devices.map((device) => device.id));
    for (const id of engine.known()) if (!present.has(id)) await this.deleted(id);
    for (const device of devices) {
      this.sender.subscribed(device.id, device.subscription);
      await engine.deviceChanged(device.id, watches.get(device.id) ?? []);
    }
    this.log.info('devices read again', { devices: devices.length });
  }
}
