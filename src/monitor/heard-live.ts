/**
 * Transactions the feed announced mined for a principal while a sync of it was reading its history. The feed and the
 * REST reads are two connections with no order between them: a block announced while a history page is on its way
 * is newer than that page, so the page's silence about it proves nothing. Unheeded, a re-org's sync would revert a
 * transaction the feed had just told mined (or mined again), and the snapshot would lose it until the next re-org.
 */
export class HeardLive {
  private readonly reading = new Map<string, Set<string>>();

  /** A sync of `principal` starts reading (syncs of one principal run one at a time). */
  begin(principal: string): void {
    this.reading.set(principal, new Set());
  }

  /** The feed told `txId` mined for `principal`. */
  heard(principal: string, txId: string): void {
    this.reading.get(principal)?.add(txId);
  }

  /** What the feed told since the sync began; the sync is over. */
  end(principal: string): ReadonlySet<string> {
    const heard = this.reading.get(principal) ?? new Set<string>();
    this.reading.delete(principal);
    return heard;
  }
}
