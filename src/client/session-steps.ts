/**
 * A session's steps as the client sends them: seq numbering, the steps sent and not yet answered, a refused seq
 * handed out again, and (while the client reconnects) every step's payload, to send again from seq 0 to a server
 * that forgot the session.
 */
import type { ClientMessage, StepMessage } from '../protocol/client-messages.js';
import { withDeadline } from './deadline.js';
import { SteplensClientError } from './errors.js';
import type { PendingStep } from './pending-step.js';
import { PendingSteps } from './pending-steps.js';
import type { SessionHost } from './session-host.js';
import { stepMessage } from './step-message.js';
import type { ScoreFrame } from './types.js';

/** A frame sent again to a restarted server: what it is, its bytes, and the barrier after it. */
export interface ReplayedFrame {
  what: string;
  bytes: number;
  barrier: number;
}

export class SessionSteps {
  readonly pending = new PendingSteps();
  private nextSeq = 0;
  /** Step payloads by seq, kept while the client reconnects, to replay into a restarted server. */
  private readonly history: Array<StepMessage['step']> = [];

  /** `send`: the session's own (false while it is held or the client reconnects: the step is sent again later). */
  constructor(
    private readonly id: string,
    private readonly host: SessionHost,
    private readonly send: (message: ClientMessage) => boolean,
  ) {}

  /** Sends `payload` with the next seq: `ClientSession.step` once the session is usable. */
  step(payload: unknown): Promise<ScoreFrame[]> {
    const seq = this.nextSeq;
    const checked = stepMessage(this.id, seq, payload, this.host);
    if (checked instanceof SteplensClientError) return Promise.reject(checked);
    const { message, bytes } = checked;
    this.nextSeq = seq + 1;
    if (this.host.reconnects) this.history[seq] = message.step;
    const answered = new Promise<ScoreFrame[]>((resolve, reject) => {
      const entry: PendingStep = { seq, payload: message.step, bytes, frames: [], barrier: undefined, resolve, reject };
      this.pending.add(entry);
      this.sendStep(entry);
    });
    const ms = this.host.timeoutMs;
    const late = `no answer within ${ms} ms to step ${seq}, which stays in flight: it may still be scored, its frames then reach onScore and scores`;
    return withDeadline(answered, ms, () => new SteplensClientError('timeout', late, { session: this.id, seq }));
  }

  private sendStep(entry: PendingStep): void {
    const barrier = this.host.nextBarrier;
    if (this.send({ type: 'step', session: this.id, seq: entry.seq, step: entry.payload })) {
      entry.barrier = barrier;
      this.host.requestBarrier();
    }
  }

  /**
   * The server refused step `seq` with `error`: its call rejects, the next `step` takes its seq, and steps pipelined
   * after it reject `out_of_order`. False when no step waits on it; true also for the refusal of a step already
   * rejected as pipelined after a refused one (dropAfter): nothing waits on it.
   */
  refused(seq: number, error: SteplensClientError): boolean {
    const entry = this.pending.refused(seq);
    if (entry === true) return true;
    if (entry === undefined) return false;
    this.nextSeq = Math.min(this.nextSeq, seq);
    this.history.length = Math.min(this.history.length, this.nextSeq);
    entry.reject(error);
    this.pending.dropAfter(seq, this.id);
    return true;
  }

  /** True when every step's payload is kept (the client reconnects), so they can all be sent again. */
  get replayable(): boolean {
    return this.history.length === this.nextSeq;
  }

  /**
   * A restarted server: every step is sent again from seq 0 (a pending one as it was, an answered one from its payload
   * kept, straight to the host); returns the largest of `largest` and their frames (`again` ends each one's name).
   */
  replay(again: string, largest: ReplayedFrame): ReplayedFrame {
    for (let seq = 0; seq < this.nextSeq; seq++) {
      const entry = this.pending.of(seq);
      if (entry) {
        this.sendStep(entry);
        continue;
      }
      const message: StepMessage = { type: 'step', session: this.id, seq, step: this.history[seq] as StepMessage['step'] };
      const bytes = this.host.frameBytes(message);
      if (bytes > largest.bytes) largest = { ...largest, what: `step ${seq} ${again}`, bytes };
      this.host.send(message);
    }
    return largest;
  }

  /** After a resume: the steps the server had accepted (seq <= `last`) resolve, the others are sent again. */
  recover(last: number): void {
    this.pending.acceptedThrough(last);
    for (const p of this.pending.all()) this.sendStep(p);
  }
}
