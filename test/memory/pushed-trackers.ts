/**
 * The waste trackers as they were before their kept arrays were made of exact size (bench/README.md, "Memory per
 * session, tenth pass"): every list grown by `push`. The reference the trackers of src/core/waste must answer as on
 * real runs (test/memory/small-arrays.test.ts). Copied from commit cf0440d, only renamed.
 */
import { createRetryDetector, REPEAT_EXEMPT_KINDS, type RetryDetector } from '../../src/core/signals/repeats.js';
import type { ActionKind, State } from '../../src/core/types.js';

interface RegressionLoop {
  id: number;
  file: string;
  /** Steps of each completed (failed) cycle. */
  cycles: number[][];
  tool: string;
}

const RUN_KINDS: ReadonlySet<ActionKind> = new Set(['run_test', 'run_script', 'run_other']);

interface RegressionTracker {
  /** Adds a state; returns the loop when this state completed one more failed cycle. */
  add(state: State): RegressionLoop | undefined;
  /** Every loop with at least one completed cycle (none when made with `history` off). */
  loops(): RegressionLoop[];
}

/** `history`: keep every loop for `loops()` (off: only the open one, for callers that read what `add` returns). */
export function pushedRegressionTracker(history = true): RegressionTracker {
  return new RegressionLoops(history);
}

/** A class, not an object of closures: every session keeps one (its stop signals), and shares the methods. */
class RegressionLoops implements RegressionTracker {
  private readonly all: RegressionLoop[] = [];
  private open: { loop: RegressionLoop; pending: number[]; phase: 'edited' | 'failed' } | undefined;
  private nextId = 0;

  constructor(private readonly history: boolean) {}

  add(state: State): RegressionLoop | undefined {
    if (state.stage === 'O' && (state.changesFile || state.changesEnv === true)) {
      this.open = undefined;
      return undefined;
    }
    const open = this.open;
    if (state.stage === 'I' && state.changesFile && !state.failed) {
      const file = state.file;
      if (open !== undefined && file !== undefined && open.loop.file === file) {
        if (open.phase === 'failed') open.phase = 'edited';
        open.pending.push(state.t);
      } else {
        this.open = file === undefined ? undefined : { loop: { id: -1, file, cycles: [], tool: state.tool }, pending: [state.t], phase: 'edited' };
      }
      return undefined;
    }
    if (open === undefined || state.stage !== 'V') return undefined;
    if (state.failed && RUN_KINDS.has(state.kind)) {
      const { loop } = open;
      if (open.phase === 'edited') {
        open.pending.push(state.t);
        loop.cycles.push(open.pending);
        open.pending = [];
        open.phase = 'failed';
        if (loop.id < 0) {
          loop.id = this.nextId++;
          if (this.history) this.all.push(loop);
        }
        return loop;
      }
      loop.cycles[loop.cycles.length - 1]?.push(state.t);
      return undefined;
    }
    if (RUN_KINDS.has(state.kind)) this.open = undefined;
    return undefined;
  }

  loops(): RegressionLoop[] {
    return this.all;
  }
}

interface RetryEpisode {
  /** Sequence number of the episode (0-based), stable while it grows. */
  id: number;
  /** The earlier state the first retry repeats, then every retry of the episode. */
  steps: number[];
  /** The earlier states the retries repeat (retry-episodes.ts). */
  repeats: number[];
  /** Number of retries (steps.length − 1). */
  retries: number;
  /** Tool of the first retry. */
  tool: string;
}

interface RetryEpisodeTracker {
  /** Adds a state; returns the open episode when this state is a retry. */
  add(state: State): RetryEpisode | undefined;
  /** Every episode so far (the open one included; none when made with `history` off). */
  episodes(): RetryEpisode[];
}

/** `detector`: a retry detector to share (see sharedRetryDetector); `history`: keep the closed episodes for `episodes()`. */
export function pushedRetryEpisodeTracker(detector: RetryDetector = createRetryDetector(), history = true): RetryEpisodeTracker {
  return new RetryEpisodes(detector, history);
}

/** A class, not an object of closures: every session keeps one (its stop signals), and shares the methods. */
class RetryEpisodes implements RetryEpisodeTracker {
  private readonly all: RetryEpisode[] = [];
  private open: RetryEpisode | undefined;
  private made = 0;

  constructor(
    private readonly detector: RetryDetector,
    private readonly history: boolean,
  ) {}

  add(state: State): RetryEpisode | undefined {
    const of = this.detector.add(state);
    if (of === undefined) {
      if (state.stage !== 'O') this.open = undefined;
      return undefined;
    }
    let open = this.open;
    if (open === undefined) {
      open = this.open = { id: this.made++, steps: [of], repeats: [of], retries: 0, tool: state.tool };
      if (this.history) this.all.push(open);
    } else if (!open.steps.includes(of) && !open.repeats.includes(of)) open.repeats.push(of);
    open.steps.push(state.t);
    open.retries += 1;
    return open;
  }

  episodes(): RetryEpisode[] {
    return this.all;
  }
}

/** The key a state is compared by: its hash, or one no other state has. */
function cycleKey(state: State): string {
  return REPEAT_EXEMPT_KINDS.has(state.kind) || state.variant === true ? `\0${state.t}` : state.hash;
}

interface CycleRun {
  /** Block length in states. */
  block: number;
  /** First step of the run and last step so far. */
  start: number;
  end: number;
  /** Complete occurrences of the block in a row. */
  reps: number;
  /** The steps of the run, in order. */
  steps: number[];
  tool: string;
}

interface CycleDetector {
  /** Adds a state; returns the runs whose repetition count grew at this state. */
  add(state: State): CycleRun[];
  /** Every run that reached 2 occurrences, in order of start. */
  runs(): CycleRun[];
}

function isPrimitive(block: readonly string[]): boolean {
  const len = block.length;
  for (let p = 1; p < len; p++) {
    if (len % p !== 0) continue;
    let periodic = true;
    for (let i = p; i < len && periodic; i++) periodic = block[i] === block[i - p];
    if (periodic) return false;
  }
  return true;
}

/** `history`: keep the runs for `runs()` (off: only the current run of each block size, for callers that read what `add` returns). */
export function pushedCycleDetector(minBlock: number, maxBlock: number, history = true): CycleDetector {
  return new Cycles(minBlock, maxBlock, history);
}

/** One block size's state: the length of its current match and its current run. */
interface BlockState {
  L: number;
  len: number;
  primitive: boolean;
  run: CycleRun | undefined;
}

/** A class, not an object of closures: every session keeps one (its stop signals), and shares the methods. */
class Cycles implements CycleDetector {
  // Only the last maxBlock + 1 states are ever read (a run is found when its block has just repeated once),
  // so their keys, t and tools live in a ring of that size instead of growing with the trajectory (not the
  // states themselves: the scorer keeps its states in columns, and a ring of objects would keep them alive).
  private readonly size: number;
  private readonly keys: string[];
  private readonly ts: number[];
  private readonly tools: string[];
  private count = 0;
  private readonly perBlock: BlockState[] = [];
  // Runs that reached 2 occurrences (a run of one occurrence is kept only while it is some block's current run).
  private readonly all: CycleRun[] = [];

  constructor(
    minBlock: number,
    maxBlock: number,
    private readonly history: boolean,
  ) {
    this.size = Math.max(1, maxBlock + 1);
    this.keys = new Array<string>(this.size);
    this.ts = new Array<number>(this.size).fill(0);
    this.tools = new Array<string>(this.size);
    for (let L = minBlock; L <= maxBlock; L++) this.perBlock.push({ L, len: 0, primitive: false, run: undefined });
  }

  private key(j: number): string {
    return this.keys[j % this.size]!;
  }

  add(state: State): CycleRun[] {
    const { size, ts, tools } = this;
    const i = this.count++;
    this.keys[i % size] = cycleKey(state);
    ts[i % size] = state.t;
    tools[i % size] = state.tool;
    const grown: CycleRun[] = [];
    for (const cur of this.perBlock) {
      const L = cur.L;
      if (i < L || this.key(i) !== this.key(i - L)) {
        cur.len = 0;
        cur.run = undefined;
        continue;
      }
      cur.len += 1;
      // A run starts when the block of the L states before i has just repeated once (len 1): it spans i - L .. i.
      if (cur.len === 1) {
        const block: string[] = [];
        for (let j = i - L; j < i; j++) block.push(this.key(j));
        cur.primitive = isPrimitive(block);
      }
      if (!cur.primitive) continue;
      const reps = Math.floor((cur.len + L) / L);
      if (cur.run === undefined) {
        const steps: number[] = [];
        for (let j = i - L; j <= i; j++) steps.push(ts[j % size]!);
        cur.run = { block: L, start: ts[(i - L) % size]!, end: state.t, reps, steps, tool: tools[(i - L) % size]! };
        if (reps >= 2 && this.history) this.all.push(cur.run);
        grown.push(cur.run);
        continue;
      }
      cur.run.end = state.t;
      cur.run.steps.push(state.t);
      if (reps > cur.run.reps) {
        if (cur.run.reps < 2 && reps >= 2 && this.history) this.all.push(cur.run);
        cur.run.reps = reps;
        grown.push(cur.run);
      }
    }
    return grown;
  }

  runs(): CycleRun[] {
    return this.all.filter((r) => r.reps >= 2).sort((a, b) => a.start - b.start || a.block - b.block);
  }
}
