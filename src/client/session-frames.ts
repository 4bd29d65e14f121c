/**
 * What a session has heard of its steps: every score frame (each step once, by its index `t`) and signal frame (each
 * once), their listeners, and the last seq seen (where a resume picks up). A resume sends frames again: they are
 * dropped here, so listeners and `scores` see each step once.
 */
import { Listeners } from './listeners.js';
import type { ScoreFrame, SignalFrame } from './types.js';

export class SessionFrames {
  readonly scores: ScoreFrame[] = [];
  readonly signals: SignalFrame[] = [];
  readonly scoreListeners: Listeners<ScoreFrame>;
  readonly signalListeners: Listeners<SignalFrame>;
  private maxSeenSeq = -1;
  private readonly seenT = new Set<number>();
  private readonly seenSignals = new Set<string>();

  constructor(report: (error: unknown) => void) {
    this.scoreListeners = new Listeners(report);
    this.signalListeners = new Listeners(report);
  }

  /** A score frame: true when it is new (recorded; the caller hands it to its step, then announces it). */
  addScore(frame: ScoreFrame): boolean {
    this.maxSeenSeq = Math.max(this.maxSeenSeq, frame.seq);
    if (this.seenT.has(frame.t)) return false;
    this.seenT.add(frame.t);
    this.scores.push(frame);
    return true;
  }

  /** A signal frame; new ones (by kind, `t`, severity and message) are recorded and announced. */
  addSignal(frame: SignalFrame): void {
    this.maxSeenSeq = Math.max(this.maxSeenSeq, frame.seq);
    // One step can fire two signals of one kind (a budget of steps and one of tokens): the message tells them apart.
    const key = `${frame.kind}:${frame.t}:${frame.severity}:${frame.message}`;
    if (this.seenSignals.has(key)) return;
    this.seenSignals.add(key);
    this.signals.push(frame);
    this.signalListeners.emit(frame);
  }

  /** The `after` of a resume: the seq before the last one seen, so a seq cut in half comes back whole. */
  get resumeAfter(): number {
    return Math.max(-1, this.maxSeenSeq - 1);
  }
}
