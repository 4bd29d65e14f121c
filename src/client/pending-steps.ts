/**
 * A session's steps sent (or queued) and not yet settled, in seq order, with the seqs of steps rejected early whose
 * refusals from the server are still to come (ignored when they do).
 */
import { SteplensClientError } from './errors.js';
import type { PendingStep } from './pending-step.js';

export class PendingSteps {
  private readonly steps: PendingStep[] = [];
  /** Seqs of steps rejected by {@link dropAfter} and sent on this socket: the server's refusals of them are ignored. */
  private readonly staleSeqs: number[] = [];

  get length(): number {
    return this.steps.length;
  }

  add(entry: PendingStep): void {
    this.steps.push(entry);
  }

  /** The pending step of `seq`, if one waits. */
  of(seq: number): PendingStep | undefined {
    return this.steps.find((p) => p.seq === seq);
  }

  /** Every pending step, in seq order. */
  all(): readonly PendingStep[] {
    return this.steps;
  }

  /** A barrier's pong: every step sent before it resolves with its frames. */
  answeredBy(barrier: number): void {
    while (this.steps[0]?.barrier !== undefined && this.steps[0].barrier <= barrier) {
      const entry = this.steps.shift()!;
      entry.resolve(entry.frames);
    }
  }

  /** After a resume: the steps the server had accepted (seq <= last) resolve with the frames they hold. */
  acceptedThrough(last: number): void {
    while (this.steps[0] !== undefined && this.steps[0].seq <= last) {
      const entry = this.steps.shift()!;
      entry.resolve(entry.frames);
    }
  }

  /**
   * The server refused `seq`: true when that refusal was for a step rejected early (nothing waits on it); else the
   * refused step, taken out (the caller rejects it), or undefined when no step of that seq waits.
   */
  refused(seq: number): true | PendingStep | undefined {
    const stale = this.staleSeqs.indexOf(seq);
    if (stale >= 0) {
      this.staleSeqs.splice(stale, 1);
      return true;
    }
    const i = this.steps.findIndex((p) => p.seq === seq);
    return i >= 0 ? this.steps.splice(i, 1)[0] : undefined;
  }

  /**
   * Steps pipelined after a refused seq can only be refused `out_of_order`: they reject now, so the caller's next
   * `step` takes the refused seq at once. Waiting for the server's refusals instead let a step sent meanwhile be
   * accepted and then its seq handed out again (sent as a duplicate, its payload dropped); those refusals are ignored.
   */
  dropAfter(seq: number, session: string): void {
    for (const p of this.steps.filter((q) => q.seq > seq)) {
      this.steps.splice(this.steps.indexOf(p), 1);
      if (p.barrier !== undefined) this.staleSeqs.push(p.seq);
      p.reject(new SteplensClientError('out_of_order', `step ${p.seq} follows step ${seq}, which the server refused: send it again after that seq`, { session, seq: p.seq }));
    }
  }

  /** Rejects and forgets every pending step. */
  rejectAll(error: SteplensClientError): void {
    for (const p of this.steps.splice(0)) p.reject(error);
  }

  /** The socket dropped: nothing sent on it is covered by a barrier any more, and no refusal of it will come. */
  disconnected(): void {
    for (const p of this.steps) p.barrier = undefined;
    this.staleSeqs.length = 0;
  }

  /** The steps sent and not yet answered: seq, frame bytes and the barrier that covers each. */
  inFlight(): Array<{ seq: number; bytes: number; barrier: number }> {
    return this.steps.flatMap((p) => (p.barrier === undefined ? [] : [{ seq: p.seq, bytes: p.bytes, barrier: p.barrier }]));
  }
}
