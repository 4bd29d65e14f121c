/**
 * One scoring session: a task's reference, an incremental scorer, the
 * format's stream parser (for formats that split action and observation), the
 * seq bookkeeping and every frame sent so far (for duplicates and resume),
 * kept compactly in a {@link FrameLog} and rebuilt when asked for.
 * Socket-free: the caller sends what the methods return.
 */
import type { Scorer, StepResult, TrajectoryReport } from '../core/scorer-api.js';
import type { ReferenceInfo, Signal, Stage, Step } from '../core/types.js';
import type { FormatName, StreamParser } from '../formats/types.js';
import type { FinalMessage, ScoreMessage, SignalMessage } from '../protocol/server-messages.js';
import { parseStepPayload } from '../protocol/parse.js';
import { FrameLog } from './frame-log.js';

export type StepFrame = ScoreMessage | SignalMessage;

/** What happened to one `step` message. */
export type StepOutcome =
  | { kind: 'accepted'; frames: StepFrame[]; results: StepResult[] }
  | { kind: 'duplicate'; frames: ScoreMessage[] }
  | { kind: 'out_of_order'; expected: number }
  | { kind: 'invalid'; message: string }
  | { kind: 'too_large'; message: string }
  | { kind: 'ended' };

export interface SessionInit {
  id: string;
  task: string;
  format: FormatName;
  agent?: string;
  model?: string;
  learn: boolean;
  scorer: Scorer;
  reference: ReferenceInfo;
  /** Stream parser for non-`steplens` formats. */
  parser?: StreamParser;
  maxSteps: number;
  now: number;
}

export class Session {
  readonly id: string;
  readonly task: string;
  readonly format: FormatName;
  readonly agent: string | undefined;
  readonly model: string | undefined;
  readonly learn: boolean;
  readonly reference: ReferenceInfo;
  /** The token digest of the connection that started it (undefined while auth is off): only it may resume or read the session. */
  principal: string | undefined;
  /** Owning connection id, undefined while detached. */
  connection: number | undefined;
  lastSeq = -1;
  lastActivity: number;
  endedAt: number | undefined;
  detachedAt: number | undefined;
  passed: boolean | undefined;
  final: FinalMessage | undefined;
  /** Set when ending begins (before the report and learning): from then on no step or outcome is accepted. */
  finishing = false;
  private readonly log: FrameLog;
  readonly signals: Signal[] = [];
  readonly stages: Record<Stage, number> = { E: 0, I: 0, V: 0, O: 0 };
  /** Released (undefined) once the session has ended: an ended session keeps only its frame log and final. */
  private scorer: Scorer | undefined;
  private parser: StreamParser | undefined;
  private scored = 0;
  private readonly maxSteps: number;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.task = init.task;
    this.format = init.format;
    this.agent = init.agent;
    this.model = init.model;
    this.learn = init.learn;
    this.scorer = init.scorer;
    this.reference = init.reference;
    this.parser = init.parser;
    this.maxSteps = init.maxSteps;
    this.lastActivity = init.now;
    this.log = new FrameLog(init.id, init.reference);
  }

  /** Every frame sent so far, in order (rebuilt from the compact log). */
  get frames(): StepFrame[] {
    return this.log.frames(() => true);
  }

  get ended(): boolean {
    return this.final !== undefined;
  }

  get length(): number {
    return this.scored;
  }

  /** The scorer of a session that has not ended (a released one is a programming error). */
  private get live(): Scorer {
    if (this.scorer === undefined) throw new Error(`session ${this.id} has ended: its scorer is released`);
    return this.scorer;
  }

  /** Handles one `step` message: duplicate, gap, invalid payload, limit, or scored. */
  step(seq: number, payload: unknown): StepOutcome {
    if (seq <= this.lastSeq) {
      return { kind: 'duplicate', frames: this.log.frames((s, type) => type === 'score' && s === seq) as ScoreMessage[] };
    }
    if (this.finishing) return { kind: 'ended' };
    if (seq !== this.lastSeq + 1) return { kind: 'out_of_order', expected: this.lastSeq + 1 };
    if (this.scored >= this.maxSteps) {
      return { kind: 'too_large', message: `session ${this.id} reached the limit of ${this.maxSteps} steps` };
    }
    let steps: Step[];
    if (this.parser === undefined) {
      const parsed = parseStepPayload(payload);
      if (!parsed.ok) return { kind: 'invalid', message: parsed.error };
      steps = [parsed.value];
    } else {
      if (typeof payload !== 'object' || payload === null) {
        return { kind: 'invalid', message: `step: expected one raw ${this.format} event (a JSON object or array)` };
      }
      steps = this.parser.push(payload).steps;
    }
    const results = steps.map((s) => this.push(s));
    // Accepted once scored: a fault while scoring leaves the seq to be sent again.
    this.lastSeq = seq;
    return { kind: 'accepted', frames: this.framesFor(seq, results), results };
  }

  /** Scores one step the session owns (parsed from its frame), numbered in place. */
  private push(step: Step): StepResult {
    step.t = this.scored;
    const result = this.live.push(step);
    this.scored += 1;
    this.stages[result.state.stage] += 1;
    this.signals.push(...result.signals);
    return result;
  }

  private framesFor(seq: number, results: StepResult[]): StepFrame[] {
    const out: StepFrame[] = [];
    for (const r of results) {
      out.push({
        type: 'score', session: this.id, seq, t: r.t, stage: r.state.stage, score: r.score, reward: r.reward, tier: r.tier,
        reference: this.reference,
      });
      for (const s of r.signals) {
        out.push({ type: 'signal', session: this.id, seq, t: s.t, kind: s.kind, severity: s.severity, steps: s.steps, message: s.message });
      }
    }
    for (const r of results) this.log.add(seq, r);
    return out;
  }

  /**
   * No more steps (from now on `step` answers `ended`): flushes the stream parser (its steps carry
   * the last seq), and returns those frames and the report. Idempotent: a second call returns nothing new.
   */
  finish(): { frames: StepFrame[]; results: StepResult[]; report: TrajectoryReport } {
    const first = !this.finishing;
    this.finishing = true;
    const steps = first && this.parser ? this.parser.end().steps : [];
    const results = steps.map((s) => this.push(s));
    const frames = this.framesFor(Math.max(this.lastSeq, 0), results);
    return { frames, results, report: this.live.report(this.passed) };
  }

  /** Frames with seq > `after`, in order (what a resuming client missed). */
  framesAfter(after: number): StepFrame[] {
    return this.log.frames((seq) => seq > after);
  }

  states(): ReturnType<Scorer['states']> {
    return this.live.states();
  }

  currentScore(): ReturnType<Scorer['score']> {
    return this.live.score();
  }

  /** The report so far (outcome as known). */
  report(): TrajectoryReport {
    return this.live.report(this.passed);
  }

  /**
   * Called once the session has ended and its final is set: drops the scorer and the stream parser (the
   * labeler's history, the shadow workspace, every state); what `resume` and GET need stays.
   */
  release(): void {
    this.scorer = undefined;
    this.parser = undefined;
  }

  /** Approximate bytes an ended session keeps (frame log and final). */
  keptBytes(): number {
    return 512 + this.log.bytes + 2 * (this.final === undefined ? 0 : JSON.stringify(this.final).length);
  }
}
