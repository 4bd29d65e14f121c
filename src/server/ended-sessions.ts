/**
 * The ended sessions a server keeps for the resume window (`resume` re-sends their frames and final, GET
 * /v1/sessions/:id reports them), bounded by count and by bytes: past either bound the oldest ended go
 * first, so a flood of short sessions cannot grow memory while none is open. The newest is always kept
 * (its client may be about to read its final).
 */

export interface EndedLimits {
  maxEndedSessions: number;
  maxEndedSessionBytes: number;
}

export class EndedSessions {
  /** Session id -> kept bytes, in the order the sessions ended (a Map keeps insertion order). */
  private readonly kept = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: EndedLimits) {}

  /** Records an ended session; returns the ids to free (oldest first) to stay within the bounds. */
  add(id: string, bytes: number): string[] {
    this.delete(id);
    this.kept.set(id, bytes);
    this.total += bytes;
    const evicted: string[] = [];
    while (this.kept.size > 1 && (this.kept.size > this.limits.maxEndedSessions || this.total > this.limits.maxEndedSessionBytes)) {
      const [oldest, size] = this.kept.entries().next().value!;
      this.kept.delete(oldest);
      this.total -= size;
      evicted.push(oldest);
    }
    return evicted;
  }

  /** Forgets a session (freed by the sweep or evicted). */
  delete(id: string): void {
    const size = this.kept.get(id);
    if (size === undefined) return;
    this.kept.delete(id);
    this.total -= size;
  }

  get count(): number {
    return this.kept.size;
  }

  get bytes(): number {
    return this.total;
  }
}
