const WINDOW_MS = 60_000;
/** The minute is counted in slots of this length; a slot the window only partly covers counts whole. */
const SLOT_MS = 5_000;
const SLOTS = WINDOW_MS / SLOT_MS + 1;

interface Client {
  readonly counts: Uint32Array;
  /** The slot number each entry of `counts` holds (a ring of the last SLOTS slots). */
  readonly slots: Float64Array;
  last: number;
}

/**
 * Requests per client address in a sliding minute: no span of 60 s ever holds more than `perMinute` requests from
 * one client. (A fixed window lets twice the rate through across its edge: a full minute's worth just before it
 * and another just after.) Each client costs a ring of 13 five-second slots; every slot that overlaps the last
 * minute counts whole, so the limit errs by at most 5 s on the strict side.
 */
export class RateLimit {
  private readonly clients = new Map<string, Client>();
  private lastSweep: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lastSweep = Math.floor(now() / SLOT_MS);
  }

  /** Counts one request; returns the seconds to wait when over the limit (the request is then not counted), else 0. */
  take(client: string): number {
    const now = this.now();
    const slot = Math.floor(now / SLOT_MS);
    this.sweep(slot);
    let state = this.clients.get(client);
    if (!state) {
      state = { counts: new Uint32Array(SLOTS), slots: new Float64Array(SLOTS).fill(-1), last: slot };
      this.clients.set(client, state);
    }
    state.last = slot;
    const index = slot % SLOTS;
    if (state.slots[index] !== slot) {
      state.slots[index] = slot;
      state.counts[index] = 0;
    }
    if (this.counted(state, slot) >= this.perMinute) return this.wait(state, slot, now);
    state.counts[index]! += 1;
    return 0;
  }

  /** Clients with requests in the last minute (tests watch idle ones leave). */
  get size(): number {
    return this.clients.size;
  }

  private counted(state: Client, slot: number): number {
    let sum = 0;
    for (let index = 0; index < SLOTS; index++) if (state.slots[index]! > slot - SLOTS) sum += state.counts[index]!;
    return sum;
  }

  /** Seconds until the oldest slots leave the window and one more request fits. */
  private wait(state: Client, slot: number, now: number): number {
    let excess = this.counted(state, slot) - this.perMinute + 1;
    for (let oldest = slot - SLOTS + 1; oldest <= slot; oldest++) {
      const index = ((oldest % SLOTS) + SLOTS) % SLOTS;
      if (state.slots[index] === oldest) excess -= state.counts[index]!;
      // Slot `oldest` stops overlapping the window once `oldest + SLOTS` begins.
      if (excess <= 0) return Math.max(1, Math.ceil(((oldest + SLOTS) * SLOT_MS - now) / 1000));
    }
    return Math.ceil(WINDOW_MS / 1000);
  }

  /** Once a minute, clients with no request in the last minute are forgotten. */
  private sweep(slot: number): void {
    if (slot - this.lastSweep < SLOTS) return;
    this.lastSweep = slot;
    for (const [client, state] of this.clients) if (state.last <= slot - SLOTS) this.clients.delete(client);
  }
}
