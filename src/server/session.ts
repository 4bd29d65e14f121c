/**
 * One scoring session: a task's reference, an incremental scorer, the
 * format's stream parser (for formats that split action and observation), the
 * seq bookkeeping and every frame sent so far (for duplicates and resume),
 * kept compactly in a {@link FrameLog} and rebuilt when asked for.
 * Socket-free: the caller sends what the methods return.
 */
import { done as kept, runToEnd, STATES_PER_STEP } from '../core/in-steps.js';
import type { Scorer, StateRecords, StepResult, TrajectoryReport } from '../core/scorer-api.js';
import type { ReferenceInfo, Signal, Stage, State, Step } from '../core/types.js';
import type { FormatName, StreamParser } from '../formats/types.js';
import { unusable } from './unusable-event.js';
import type { FinalMessage, ScoreMessage, SignalMessage } from '../protocol/server-messages.js';
import { parseStepPayload } from '../protocol/parse.js';
import type { PinnedReference } from '../store/session-journal.js';
import { FrameLog } from './frame-log.js';
import { nextRoom, nextRoomToward, ROOM_MAX, withRoom } from '../core/memory/small-arrays.js';
import { sessionKey, type Principal } from './principal.js';
import type { SessionInit, SessionPolicy } from './session-init.js';
import { stepText } from './step-text.js';
import { frameText } from './frame-text.js';

export type StepFrame = ScoreMessage | SignalMessage;

/** Stage letters a list row shows. */
export const RECENT = 40;

/** What happened to one `step` message. */
export type StepOutcome =
  | { kind: 'accepted'; frames: StepFrame[]; results: StepResult[] }
  | { kind: 'duplicate'; frames: ScoreMessage[] }
  | { kind: 'out_of_order'; expected: number }
  | { kind: 'invalid'; message: string }
  | { kind: 'too_large'; message: string }
  | { kind: 'ended' };

export class Session {
  readonly id: string;
  readonly task: string;
  readonly format: FormatName;
  readonly agent: string | undefined;
  readonly model: string | undefined;
  readonly learn: boolean;
  readonly reference: ReferenceInfo;
  /** Who started it: only its tenant (and operators, read-only) may see it; what it may learn follows the role. */
  readonly principal: Principal;
  /** Its id within its tenant's namespace: the registry's and the journal's key. */
  readonly key: string;
  /** Order of registration on this replica (the session list's cursor). */
  ordinal = 0;
  readonly policy: SessionPolicy | undefined;
  readonly forecastVersion: number | undefined;
  /** Owning connection id, undefined while detached. */
  connection: number | undefined;
  lastSeq = -1;
  readonly startedAt: number;
  lastActivity: number;
  endedAt: number | undefined;
  detachedAt: number | undefined;
  final: FinalMessage | undefined;
  /** Set when ending begins (before the report and learning): from then on no step or outcome is accepted. */
  finishing = false;
  /** With Redis: the reference pinned in the journal, and the last durable write still in flight. */
  pin: PinnedReference | undefined;
  lastWrite: Promise<unknown> | undefined;
  /** With Redis: bytes of its step frames in the journal (bounded by `limits.maxSessionBytes`). */
  storedBytes = 0;
  /** Bytes of step messages this session holds in memory, counted against `stepBytesPerTenant` and `stepBytesTotal` (tenant-step-bytes.ts). */
  heldStepBytes = 0;
  private readonly log: FrameLog;
  readonly stages: Record<Stage, number> = { E: 0, I: 0, V: 0, O: 0 };
  /** Released (undefined) once the session has ended: an ended session keeps only its frame log and final. */
  private scorer: Scorer | undefined;
  private parser: StreamParser | undefined;
  private scored = 0;
  /**
   * The states kept once the scorer is released (the web view's step table and alignment of an ended session), in
   * the scorer's compact columns: state objects are made only when a page asks, and an ended session holds 15-19 KB
   * instead of 24-27 (bench/memory.ts, its ended rows).
   */
  private endedStates: StateRecords | undefined;
  private readonly maxSteps: number;
  /** One short line per step saying what it did (the web view's step table). */
  private texts: string[] = [];
  /** Lines `texts` has room for: grown by an eighth, not by push's half ({@link withRoom}), toward {@link expectedSteps}. */
  private textRoom = 0;
  private readonly expectedSteps: number;

  constructor(init: SessionInit) {
    this.id = init.id;
    this.principal = init.principal;
    this.key = sessionKey(init.principal.tenant, init.id);
    this.task = init.task;
    this.format = init.format;
    this.agent = init.agent;
    this.model = init.model;
    this.learn = init.learn;
    this.forecastVersion = init.forecastVersion;
    this.scorer = init.scorer;
    this.reference = init.reference;
    this.policy = init.policy;
    this.parser = init.parser;
    this.maxSteps = init.maxSteps;
    this.expectedSteps = init.expectedSteps ?? 0;
    this.startedAt = init.now;
    this.lastActivity = init.now;
    this.log = new FrameLog(init.id, init.reference, init.weights, this.expectedSteps);
  }

  /** The test outcome, when the client sent one; the tiers of later steps follow it. */
  get passed(): boolean | undefined {
    return this.outcome;
  }

  set passed(passed: boolean | undefined) {
    this.outcome = passed;
    this.scorer?.setOutcome(passed);
  }

  private outcome: boolean | undefined;

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
      return { kind: 'duplicate', frames: this.log.framesOf(seq, 'score') as ScoreMessage[] };
    }
    if (this.finishing) return { kind: 'ended' };
    if (seq !== this.lastSeq + 1) return { kind: 'out_of_order', expected: this.lastSeq + 1 };
    if (this.scored >= this.maxSteps) {
      return { kind: 'too_large', message: `session ${this.id} reached the limit of ${this.maxSteps} steps` };
    }
    let results: StepResult[];
    if (this.parser === undefined) {
      const parsed = parseStepPayload(payload);
      if (!parsed.ok) return { kind: 'invalid', message: parsed.error };
      results = [this.push(parsed.value)];
    } else {
      if (typeof payload !== 'object' || payload === null) {
        return { kind: 'invalid', message: `step: expected one raw ${this.format} event (a JSON object or array)` };
      }
      const pushed = this.parser.push(payload);
      // The parser could not use it (the whole log as one event, a mistyped role): refused, naming why, its seq unused.
      if (pushed.steps.length === 0 && pushed.diagnostics.length > 0) return { kind: 'invalid', message: unusable(this.format, pushed.diagnostics) };
      results = this.withinLimit(pushed.steps).map((s) => this.push(s));
    }
    // Accepted once scored: a fault while scoring leaves the seq to be sent again.
    this.lastSeq = seq;
    return { kind: 'accepted', frames: this.framesFor(seq, results), results };
  }

  /** The steps a raw event (or the parser's end) released that fit under the session's step limit. */
  private withinLimit(steps: Step[]): Step[] {
    const room = Math.max(0, this.maxSteps - this.scored);
    return steps.length <= room ? steps : steps.slice(0, room);
  }

  /** Scores one step the session owns (parsed from its frame), numbered in place. */
  private push(step: Step): StepResult {
    step.t = this.scored;
    const result = this.live.push(step);
    this.scored += 1;
    const n = this.texts.length;
    if (n === this.textRoom && n < ROOM_MAX) this.texts = withRoom(this.texts, (this.textRoom = nextRoomToward(n, this.expectedSteps)));
    this.texts.push(stepText(step));
    this.stages[result.state.stage] += 1;
    return result;
  }

  private framesFor(seq: number, results: StepResult[]): StepFrame[] {
    // Sized up front: an empty array's first push gives it room for 17 frames (~150 B a step for the usual one).
    let n = results.length;
    for (const r of results) n += r.signals.length;
    const out = new Array<StepFrame>(n);
    let k = 0;
    for (const r of results) {
      const frame: ScoreMessage = { type: 'score', session: this.id, seq, t: r.t, stage: r.state.stage, score: r.score, reward: r.reward, tier: r.tier, reference: this.reference };
      // Set after the others, as the spread that built it did (frames serialise in this key order).
      if (r.pPass !== undefined) frame.pPass = r.pPass;
      out[k++] = frame;
      for (const s of r.signals) {
        out[k++] = { type: 'signal', session: this.id, seq, t: s.t, kind: s.kind, severity: s.severity, steps: s.steps, message: s.message };
      }
    }
    for (const r of results) this.log.add(seq, r);
    return out;
  }

  /**
   * No more steps (from now on `step` answers `ended`): flushes the stream parser (its steps carry
   * the last seq), and returns those frames and the report, in steps ({@link reportInSteps}: of every step scored,
   * the outcome as known; built as its caller runs it, ~35-200 ms in one go at 5,000 steps). Idempotent: a second
   * call returns no new frame.
   */
  finish(): { frames: StepFrame[]; results: StepResult[]; report: Generator<void, TrajectoryReport> } {
    const first = !this.finishing;
    this.finishing = true;
    const steps = first && this.parser ? this.withinLimit(this.parser.end().steps) : [];
    const results = steps.map((s) => this.push(s));
    const frames = this.framesFor(Math.max(this.lastSeq, 0), results);
    return { frames, results, report: this.reportInSteps() };
  }

  /** Frames with seq > `after`, in order (what a resuming client missed). */
  framesAfter(after: number): Generator<StepFrame, void, undefined> {
    return this.log.iterate((seq) => seq > after);
  }

  /**
   * Stage letters of the last {@link RECENT} steps, oldest first: read from the scorer's state columns (the ended
   * session's kept ones), which hold each step's stage anyway; no ring of its own (~0.2 KB a session, mem21).
   */
  get recentStages(): string {
    const states = this.scorer?.keptStates() ?? this.endedStates;
    if (states === undefined) return '';
    const to = states.length;
    let out = '';
    for (let t = Math.max(0, to - RECENT); t < to; t++) out += states.stageAt(t)!; // t < length: a stage
    return out;
  }

  /** The signals fired so far, in order: the frame log's list (one list a session, not two). */
  get signals(): readonly Signal[] {
    return this.log.signalsSent;
  }

  get tenant(): string {
    return this.principal.tenant;
  }

  /** What each step did, one line per step (see {@link stepText}). */
  stepTexts(): readonly string[] {
    return this.texts;
  }

  /** Running composite after each scored step (shadow mode replays candidate stops over it): read from the frame log, which keeps it anyway. */
  get totals(): readonly number[] {
    return this.log.totals();
  }

  /** The composite after the last scored step, or undefined before any. */
  get latestTotal(): number | undefined {
    return this.log.latestTotal;
  }

  /** Every state so far (while live, rebuilt from the scorer's columns on each call). */
  states(): ReturnType<Scorer['states']> {
    return this.scorer === undefined ? (this.endedStates?.all() ?? []) : this.scorer.states();
  }

  /**
   * {@link states} in steps (core/in-steps.ts): the states of the steps scored when it is called, rebuilt
   * {@link STATES_PER_STEP} between two yields (what a session's end learns from and the shadow policy counts).
   */
  statesInSteps(): Generator<void, State[]> {
    return this.statesUpTo(this.scored);
  }

  private *statesUpTo(n: number): Generator<void, State[]> {
    const out = new Array<State>(n);
    for (let t = 0; t < n; t++) {
      out[t] = this.state(t)!; // t < the count read when asked: the states are append-only
      if ((t + 1) % STATES_PER_STEP === 0) yield;
    }
    return out;
  }

  /** The state of the step at position `t` (0-based), without rebuilding the others. */
  state(t: number): ReturnType<Scorer['state']> {
    return this.scorer === undefined ? this.endedStates?.at(t) : this.scorer.state(t);
  }

  /** With a forecast model and before `release`: the forecaster's feature vectors at the sampled prefix lengths (what the learner refits on). */
  forecastTrace(): ReturnType<NonNullable<Scorer['forecastTrace']>> | undefined {
    return this.scorer?.forecastTrace?.();
  }

  currentScore(): ReturnType<Scorer['score']> {
    return this.live.score();
  }

  /** The score, tier and pPass so far (outcome as known): {@link report} without its waste analysis. */
  headline(): Pick<TrajectoryReport, 'score' | 'tier' | 'pPass'> {
    return this.live.headline(this.passed);
  }

  /** The report so far (outcome as known), kept until the next step or outcome: the web view polls it. */
  report(): TrajectoryReport {
    return runToEnd(this.reportInSteps());
  }

  /**
   * {@link report} in steps (the scorer's `reportInSteps`): the report as of now, whatever is scored while it runs;
   * kept once done if no step or outcome came meanwhile (a kept one is returned at the first `next()`).
   */
  reportInSteps(): Generator<void, TrajectoryReport> {
    const memo = this.reported;
    if (memo?.scored === this.scored && memo.passed === this.passed) return kept(memo.report);
    // Asked of the scorer now (a generator's body runs at its first `next()`): the report of the steps scored so far.
    const scorer = this.live;
    return this.reportKept(scorer, scorer.reportInSteps(this.passed), this.scored, this.passed);
  }

  private *reportKept(scorer: Scorer, steps: Generator<void, TrajectoryReport>, scored: number, passed: boolean | undefined): Generator<void, TrajectoryReport> {
    const report = yield* steps;
    // Not once a step, the outcome or the end came meanwhile (a report of the session as it is now may be kept already).
    if (this.scorer === scorer && this.scored === scored && this.passed === passed) this.reported = { scored, passed, report };
    return report;
  }

  /** The last {@link report}, and the step count and outcome it is of. */
  private reported: { scored: number; passed: boolean | undefined; report: TrajectoryReport } | undefined;

  /**
   * Called once the session has ended and its final is set: drops the scorer and the stream parser (the
   * labeler's history, the shadow workspace); what `resume`, GET and the web view need stays: the frame log,
   * the final and the states (counted in {@link keptBytes}, so the ended-session byte bound covers them).
   */
  release(): void {
    if (this.scorer === undefined) return;
    this.endedStates = this.scorer.keptStates();
    this.scorer.release();
    this.scorer = undefined;
    // Ended short of the steps expected: the step lines drop the room grown toward them (the states' columns do in release).
    if (this.textRoom > nextRoom(this.texts.length)) {
      this.texts = this.texts.slice();
      this.textRoom = this.texts.length;
    }
    this.parser = undefined;
    this.reported = undefined; // views of an ended session read its final
  }

  /** Idle a while (idle-compact.ts): the scorer's texts deflated until read, the step lines' spare room dropped; false once ended. */
  compact(): boolean {
    if (this.scorer === undefined || this.finishing) return false;
    this.scorer.compact();
    this.texts = this.texts.slice();
    this.textRoom = this.texts.length;
    return true;
  }

  /** Approximate heap bytes an ended session keeps (frame log, final, step lines and states; bench/memory.ts compares it with the heap). */
  keptBytes(): number {
    // The final's text is made once for this and for its send (frameText's one-slot memo).
    const final = this.final === undefined ? 0 : 2 * frameText(this.final).length;
    // One byte a character: V8 keeps Latin-1 text (most of these lines) one byte wide.
    let lines = 0;
    for (const t of this.texts) lines += t.length + STRING_BYTES;
    return 512 + this.log.bytes + final + lines + KEPT_STATE_BYTES * (this.endedStates?.length ?? 0);
  }
}

/** Heap bytes of a state in the scorer's columns, with the arrays' spare room (the strings and token arrays are pooled). */
const KEPT_STATE_BYTES = 64;
/** A string's header and the array slot that holds it. */
const STRING_BYTES = 24;
