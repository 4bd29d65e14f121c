/**
 * The frames a session sent, kept compactly for duplicates and resume: one
 * variable-length row of unboxed doubles per score frame in a single number
 * array (packed codes, total, coh, temp, then struct, cov and pPass when present; coh, struct and cov
 * are left out when equal to the previous row's, as they are at about half, a quarter and four fifths of steps),
 * signal frames as references to the scorer's Signal objects. Frames are
 * rebuilt, equal to those sent, only when asked for. What is almost always
 * implied is not stored: t is the row index, seq the previous seq plus a small
 * step (both in the codes), the reward the change of the total, and, scored against a reference, the total itself
 * when the composite of the row's values gives it (it always does on the server); exceptions are kept aside.
 */
import { referenceTotal } from '../core/composite.js';
import { appended } from '../core/memory/small-arrays.js';
import type { Weights } from '../core/config.js';
import type { StepResult } from '../core/scorer-api.js';
import { Score } from '../core/score-vector.js';
import type { ReferenceInfo, ScoreVector, Signal } from '../core/types.js';
import type { ScoreMessage, SignalMessage } from '../protocol/server-messages.js';

type StepFrame = ScoreMessage | SignalMessage;

const STRUCT = 1;
const COV = 2;
const PPASS = 4;
/** coh, struct, cov: the same value as in the previous row (not stored). */
const SAME_COH = 8;
const SAME_STRUCT = 16;
const SAME_COV = 32;
/** The total is the composite of struct, cov, coh and temp under the log's weights (not stored). */
const DERIVED_TOTAL = 64;
/** Radix of the flags in a row's codes (its lowest digit). */
const F = 128;
/** Radix of each other field packed into a row's codes (stage, tier, seq step, signal count). */
const R = 64;
const MAX_SEQ_STEP = R - 2;
const SEQ_ASIDE = R - 1;
/**
 * Codes below this (a row of at most one signal: flags, stage, tier and seq step take 25 bits) pair up: an odd row's
 * code goes into its even predecessor's number as `PAIRED + code0 + PAIR * code1`, exact below 2^53, instead of a
 * number of its own (~0.4 KB of a 100-step session's ~3.2 KB of numbers; bench/README.md "mem19").
 */
const PAIR = 2 ** 26;
/** A row's code number at or past this holds two codes (a lone code is below 2^52: it would take 2^27 signals in one step). */
const PAIRED = 2 ** 52;

/** A paired number's two codes, the even row's first (decoding: totals and re-sent frames, not a step's path). */
function unpair(packed: number): [number, number] {
  const both = packed - PAIRED;
  const first = both % PAIR;
  return [first, (both - first) / PAIR];
}

/**
 * The stage and tier values a row's codes name, one table for every log (they are a handful of enum values; a
 * table per session cost ~180 B). Only grows: a code, once given, names its value for good.
 */
const CODES: string[] = [];

/**
 * Numbers of a chunk of the rows. A single array grows by half its length plus 16, so about a quarter of it was
 * spare room (~1.2 KB of a 100-step session's ~4.6); chunks of a fixed size leave at most one chunk's.
 */
const CHUNK = 64;

/**
 * Rows between two marks. A mark is where decoding may start (the decoder's state before a row), so the frames of
 * one seq (a duplicate step, sent again by a client) cost at most this many rows, not the whole log: 4 connections
 * pipelining 2,000 duplicates of a step near the end of their 5,000-step sessions held every other client 4-9 s.
 */
export const MARK_ROWS = 64;

/** The decoder's state before row `row`. */
interface Mark {
  row: number;
  p: number;
  k: number;
  seq: number;
  total: number;
  coh: number;
  struct: number | null;
  cov: number | null;
}

/** Numbers of a mark in `marks`: p, k, seq, total, coh, struct, cov, and which of struct and cov are null. */
const MARK_NUMBERS = 8;
const NULL_STRUCT = 1;
const NULL_COV = 2;
/** Numbers of marks kept in an array of exact size (8 marks, 512 rows); past that, pushed to (spare room ≤ half). */
const EXACT_MARKS = 8 * MARK_NUMBERS;

/** Compact, append-only log of a session's score and signal frames. */
export class FrameLog {
  /**
   * A {@link Mark} before every {@link MARK_ROWS}-th row but the first (the one before row 0 is {@link START}), as
   * {@link MARK_NUMBERS} unboxed doubles: a mark object with its boxed doubles cost ~150 B, and the first one was
   * every session's (bench/README.md, "Memory per session, eighth pass").
   */
  private marks: number[] = [];
  /**
   * The rows' numbers in chunks of {@link CHUNK} (number `p` at `chunks[p / CHUNK][p % CHUNK]`); the list is of
   * exact size while short ({@link appended}), as the marks are while under {@link EXACT_MARKS}.
   */
  private chunks: number[][] = [];
  private numbers = 0;
  private signals: Signal[] = [];
  /** Rewards, t and seq values that are not the implied ones, by row. */
  private aside: Map<number, { reward?: number; t?: number; seq?: number }> | undefined;
  private count = 0;
  private lastSeq = 0;
  private lastTotal = 0;
  /** The previous row's coh, struct and cov (NaN before the first row: equal to nothing). */
  private lastCoh = Number.NaN;
  private lastStruct: number | null = Number.NaN;
  private lastCov: number | null = Number.NaN;
  /** Where the last row's code is, when that row is even and its code can take the next one's ({@link PAIR}); else -1. */
  private pairAt = -1;

  /**
   * `weights`: the session's composite weights, so that a total they give need not be kept (~0.8 KB a 100-step
   * session). `expected`: the rows the session is expected to reach (0: unknown): a chunk begun before them is made
   * whole at once, not grown 16, 32, 64 (two copies a chunk, garbage promoted with many sessions stepping in turn).
   */
  constructor(
    private readonly session: string,
    private readonly reference: ReferenceInfo,
    private readonly weights?: Weights,
    private readonly expected = 0,
  ) {}

  /** The signals sent so far, in order (the session's list of them: kept once, here). */
  get signalsSent(): readonly Signal[] {
    return this.signals;
  }

  /** Number of score frames logged. */
  get length(): number {
    return this.count;
  }

  /** Approximate bytes held: 8 per row number, the signals (shared with the scorer while it lives) and the exceptions. */
  get bytes(): number {
    let signals = 0;
    for (const s of this.signals) signals += 96 + 2 * s.message.length + 8 * s.steps.length;
    return 64 + 8 * this.numbers + signals + 64 * (this.aside?.size ?? 0) + 8 * this.marks.length;
  }

  private code(text: string): number {
    const i = CODES.indexOf(text);
    if (i >= 0) return i;
    if (CODES.length >= R) throw new Error(`frame log: more than ${R} distinct stage/tier values`);
    CODES.push(text);
    return CODES.length - 1;
  }

  /** Logs the frames of one scored step sent under `seq`: its score frame, then one signal frame per signal. */
  add(seq: number, r: StepResult): void {
    const s = r.score;
    const i = this.count;
    if (i % MARK_ROWS === 0 && i > 0) {
      const nulls = (this.lastStruct === null ? NULL_STRUCT : 0) | (this.lastCov === null ? NULL_COV : 0);
      const mark = [this.numbers, this.signals.length, this.lastSeq, this.lastTotal, this.lastCoh, this.lastStruct ?? 0, this.lastCov ?? 0, nulls];
      // A copy of exact size while short: the first mark pushed left 20 spare slots (~0.2 KB of a 100-step session).
      if (this.marks.length < EXACT_MARKS) this.marks = this.marks.concat(mark);
      else this.marks.push(...mark);
    }
    const rewardAside = !Object.is(r.reward, s.total - this.lastTotal);
    let step = seq - this.lastSeq;
    const seqAside = !(Number.isInteger(step) && step >= 0 && step <= MAX_SEQ_STEP);
    if (seqAside) step = SEQ_ASIDE;
    // The exceptions' object is made only for a row that has one (nearly never on the server): no object a step.
    if (rewardAside || r.t !== i || seqAside) {
      const extra: { reward?: number; t?: number; seq?: number } = {};
      if (rewardAside) extra.reward = r.reward;
      if (r.t !== i) extra.t = r.t;
      if (seqAside) extra.seq = seq;
      (this.aside ??= new Map()).set(i, extra);
    }
    let flags = (s.struct === null ? 0 : STRUCT) | (s.cov === null ? 0 : COV) | (r.pPass === undefined ? 0 : PPASS);
    if (Object.is(s.coh, this.lastCoh)) flags |= SAME_COH;
    if (s.struct !== null && Object.is(s.struct, this.lastStruct)) flags |= SAME_STRUCT;
    if (s.cov !== null && Object.is(s.cov, this.lastCov)) flags |= SAME_COV;
    const w = this.weights;
    if (w !== undefined && s.struct !== null && s.cov !== null && Object.is(referenceTotal(w, s.struct, s.cov, s.coh, s.temp), s.total)) flags |= DERIVED_TOTAL;
    const code = flags + F * (this.code(r.state.stage) + R * (this.code(r.tier) + R * (step + R * r.signals.length)));
    if (this.pairAt >= 0 && code < PAIR) this.set(this.pairAt, PAIRED + this.at(this.pairAt) + PAIR * code);
    else this.push(code);
    // Marks fall on even rows (MARK_ROWS is even), so decoding from one never starts on a row whose code is paired.
    this.pairAt = i % 2 === 0 && code < PAIR ? this.numbers - 1 : -1;
    if (!(flags & DERIVED_TOTAL)) this.push(s.total);
    if (!(flags & SAME_COH)) this.push(s.coh);
    this.push(s.temp);
    if (s.struct !== null && !(flags & SAME_STRUCT)) this.push(s.struct);
    if (s.cov !== null && !(flags & SAME_COV)) this.push(s.cov);
    if (r.pPass !== undefined) this.push(r.pPass);
    this.lastCoh = s.coh;
    this.lastStruct = s.struct;
    this.lastCov = s.cov;
    for (const sig of r.signals) this.signals = appended(this.signals, sig);
    this.count += 1;
    this.lastSeq = seq;
    this.lastTotal = s.total;
  }

  private push(x: number): void {
    const i = this.numbers % CHUNK;
    const n = this.chunks.length;
    // The last chunk is 16, then 32, then 64 numbers long (made at 64, it was half spare on average: ~0.25 KB a session).
    if (i === 0) this.chunks = appended(this.chunks, doubles(this.fillsChunk() ? CHUNK : CHUNK / 4));
    else if (i === this.chunks[n - 1]!.length) {
      const grown = doubles(2 * i);
      const last = this.chunks[n - 1]!;
      for (let j = 0; j < i; j++) grown[j] = last[j]!;
      this.chunks[n - 1] = grown;
    }
    this.chunks[this.chunks.length - 1]![i] = x;
    this.numbers += 1;
  }

  /** Whether the rows still expected fill a chunk begun now, at the numbers a row so far (4 before any row). */
  private fillsChunk(): boolean {
    const perRow = this.count > 0 ? this.numbers / this.count : 4;
    return this.numbers + CHUNK <= this.expected * perRow;
  }

  /** The row number at position `p` (< this.numbers). */
  private at(p: number): number {
    return this.chunks[Math.floor(p / CHUNK)]![p % CHUNK]!;
  }

  private set(p: number, x: number): void {
    this.chunks[Math.floor(p / CHUNK)]![p % CHUNK] = x;
  }

  /** The composite after each step, in order (the session's totals: kept once, here). */
  totals(): number[] {
    const out = new Array<number>(this.count);
    let p = 0;
    let coh = Number.NaN;
    let struct = Number.NaN;
    let cov = Number.NaN;
    let next = -1;
    for (let i = 0; i < this.count; i++) {
      let code = next;
      next = -1;
      if (code < 0) {
        code = this.at(p++);
        if (code >= PAIRED) [code, next] = unpair(code);
      }
      const flags = code % F;
      const total = flags & DERIVED_TOTAL ? 0 : this.at(p++);
      if (!(flags & SAME_COH)) coh = this.at(p++);
      const temp = this.at(p++);
      if (flags & STRUCT && !(flags & SAME_STRUCT)) struct = this.at(p++);
      if (flags & COV && !(flags & SAME_COV)) cov = this.at(p++);
      if (flags & PPASS) p++;
      out[i] = flags & DERIVED_TOTAL ? referenceTotal(this.weights!, struct, cov, coh, temp) : total;
    }
    return out;
  }

  /** The composite after the last step, or undefined before any. */
  get latestTotal(): number | undefined {
    return this.count === 0 ? undefined : this.lastTotal;
  }

  /** The logged frames, in the order sent, that `keep` accepts (by seq and type). */
  frames(keep: (seq: number, type: StepFrame['type']) => boolean): StepFrame[] {
    return Array.from(this.iterate(keep));
  }

  /**
   * {@link frames} one at a time, as they are decoded: a resume sends a long log over several turns of the event
   * loop without decoding it whole first. The rows logged when it starts are the ones it yields.
   */
  *iterate(keep: (seq: number, type: StepFrame['type']) => boolean): Generator<StepFrame, void, undefined> {
    yield* this.decode(keep, START);
  }

  /** The frames sent under `seq` (a duplicate's), decoded from the last mark before them and no further than their rows. */
  framesOf(seq: number, type: StepFrame['type']): StepFrame[] {
    // Rows are in seq order: the last mark whose previous row's seq is below `seq` has no row of `seq` before it.
    // Mark j is START for j = 0, else the one before row j * MARK_ROWS.
    let lo = 0;
    let hi = this.marks.length / MARK_NUMBERS;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.marks[(mid - 1) * MARK_NUMBERS + 2]! < seq) lo = mid;
      else hi = mid - 1;
    }
    return Array.from(this.decode((s, t) => s === seq && t === type, lo === 0 ? START : this.mark(lo), seq));
  }

  /** Mark `j` (> 0), the decoder's state before row `j * MARK_ROWS`. */
  private mark(j: number): Mark {
    const m = this.marks;
    const at = (j - 1) * MARK_NUMBERS;
    const nulls = m[at + 7]!;
    return {
      row: j * MARK_ROWS,
      p: m[at]!,
      k: m[at + 1]!,
      seq: m[at + 2]!,
      total: m[at + 3]!,
      coh: m[at + 4]!,
      struct: nulls & NULL_STRUCT ? null : m[at + 5]!,
      cov: nulls & NULL_COV ? null : m[at + 6]!,
    };
  }

  /** Decodes rows from `from` (to the last row logged when it starts, or the first past seq `until`), yielding what `keep` accepts. */
  private *decode(keep: (seq: number, type: StepFrame['type']) => boolean, from: Mark, until = Infinity): Generator<StepFrame, void, undefined> {
    const count = this.count;
    let { p, k, seq, total: prevTotal, coh: prevCoh, struct: prevStruct, cov: prevCov } = from;
    let next = -1;
    for (let i = from.row; i < count; i++) {
      let packed = next;
      next = -1;
      if (packed < 0) {
        packed = this.at(p++);
        if (packed >= PAIRED) [packed, next] = unpair(packed);
      }
      const digit = (): number => {
        const d = packed % R;
        packed = (packed - d) / R;
        return d;
      };
      const flags = packed % F;
      packed = (packed - flags) / F;
      const stage = CODES[digit()] as ScoreMessage['stage'];
      const tier = CODES[digit()] as ScoreMessage['tier'];
      const step = digit();
      const signals = packed;
      const storedTotal = flags & DERIVED_TOTAL ? 0 : this.at(p++);
      const coh = flags & SAME_COH ? prevCoh : this.at(p++);
      const temp = this.at(p++);
      const struct: number | null = flags & STRUCT ? (flags & SAME_STRUCT ? prevStruct : this.at(p++)) : null;
      const cov: number | null = flags & COV ? (flags & SAME_COV ? prevCov : this.at(p++)) : null;
      // add() sets DERIVED_TOTAL only with weights, struct and cov.
      const total = flags & DERIVED_TOTAL ? referenceTotal(this.weights!, struct!, cov!, coh, temp) : storedTotal;
      const pPass = flags & PPASS ? this.at(p++) : undefined;
      prevCoh = coh;
      prevStruct = struct;
      prevCov = cov;
      const extra = this.aside?.get(i);
      seq = step === SEQ_ASIDE ? extra!.seq! : seq + step; // add() kept seq aside with this step code
      if (seq > until) return;
      if (keep(seq, 'score')) {
        const score: ScoreVector = new Score(total, struct, cov, coh, temp);
        const reward = extra?.reward ?? total - prevTotal;
        yield {
          type: 'score',
          session: this.session,
          seq,
          t: extra?.t ?? i,
          stage,
          score,
          reward,
          tier,
          reference: this.reference,
          ...(pPass !== undefined ? { pPass } : {}),
        };
      }
      prevTotal = total;
      for (let j = 0; j < signals; j++, k++) {
        const s = this.signals[k]!;
        if (keep(seq, 'signal')) yield { type: 'signal', session: this.session, seq, t: s.t, kind: s.kind, severity: s.severity, steps: s.steps, message: s.message };
      }
    }
  }
}

/**
 * A chunk of `n` numbers, made at its length and filled with a double: its store is allocated once, at that size, and
 * holds unboxed doubles from the start (filled with 0, a chunk changed kind at its first double, and its stores went slow).
 */
function doubles(n: number): number[] {
  return new Array<number>(n).fill(Number.NaN);
}

/** The decoder's state before the first row. */
const START: Mark = { row: 0, p: 0, k: 0, seq: 0, total: 0, coh: Number.NaN, struct: Number.NaN, cov: Number.NaN };
