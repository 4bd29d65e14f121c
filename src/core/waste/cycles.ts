/**
 * Cyclic patterns (method.md section 10): a block of `minBlock`..`maxBlock`
 * state hashes occurring several times in a row (A B A B A B). Only primitive
 * blocks count (A A is a blind retry, A B A B is the block A B repeated). A
 * change inside the block is repeated with it and is part of the loop. A
 * state the repeat detectors never take as a repeat (a finish: a confirm turn
 * or CodeR's hand-over; a turn without an action; an unparsed call) or a
 * variant of an earlier action matches nothing, so it breaks a cycle.
 */
import { REPEAT_EXEMPT_KINDS } from '../signals/repeats.js';
import type { State } from '../types.js';
import { appended, exact } from '../memory/small-arrays.js';

/**
 * The key a state is compared by: its hash, or one no other state has: its `t`, a number (no hash equals it; two
 * states share it only when they share a `t`, as the string `\0${t}` it replaced did, without a string a state).
 */
function cycleKey(state: State): string | number {
  return REPEAT_EXEMPT_KINDS.has(state.kind) || state.variant === true ? state.t : state.hash;
}

export interface CycleRun {
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

export interface CycleDetector {
  /** Adds a state; returns the runs whose repetition count grew at this state (a shared empty list when none did). */
  add(state: State): readonly CycleRun[];
  /** Every run that reached 2 occurrences, in order of start. */
  runs(): CycleRun[];
}

/** What most states grow: nothing (one list for every detector, not one a state). */
const NO_RUNS: readonly CycleRun[] = Object.freeze([]);

/** True when the block of the `len` keys at ring positions `from`.. (mod `keys.length`) is no shorter block repeated. */
function isPrimitive(keys: ReadonlyArray<string | number>, from: number, len: number): boolean {
  const size = keys.length;
  for (let p = 1; p < len; p++) {
    if (len % p !== 0) continue;
    let periodic = true;
    for (let i = p; i < len && periodic; i++) periodic = keys[(from + i) % size] === keys[(from + i - p) % size];
    if (periodic) return false;
  }
  return true;
}

/** `history`: keep the runs for `runs()` (off: only the current run of each block size, for callers that read what `add` returns). */
export function createCycleDetector(minBlock: number, maxBlock: number, history = true): CycleDetector {
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
  private readonly keys: Array<string | number>;
  private readonly ts: number[];
  private readonly tools: string[];
  private count = 0;
  private readonly perBlock: readonly BlockState[];
  // Runs that reached 2 occurrences (a run of one occurrence is kept only while it is some block's current run).
  private all: CycleRun[] = [];

  constructor(
    minBlock: number,
    maxBlock: number,
    private readonly history: boolean,
  ) {
    this.size = Math.max(1, maxBlock + 1);
    this.keys = new Array<string | number>(this.size);
    this.ts = new Array<number>(this.size).fill(0);
    this.tools = new Array<string>(this.size);
    const perBlock: BlockState[] = [];
    for (let L = minBlock; L <= maxBlock; L++) perBlock.push({ L, len: 0, primitive: false, run: undefined });
    this.perBlock = exact(perBlock);
  }

  private key(j: number): string | number {
    return this.keys[j % this.size]!;
  }

  add(state: State): readonly CycleRun[] {
    const { size, ts, tools } = this;
    const i = this.count++;
    this.keys[i % size] = cycleKey(state);
    ts[i % size] = state.t;
    tools[i % size] = state.tool;
    let grown: CycleRun[] | undefined;
    for (const cur of this.perBlock) {
      const L = cur.L;
      if (i < L || this.key(i) !== this.key(i - L)) {
        cur.len = 0;
        cur.run = undefined;
        continue;
      }
      cur.len += 1;
      // A run starts when the block of the L states before i has just repeated once (len 1): it spans i - L .. i.
      if (cur.len === 1) cur.primitive = isPrimitive(this.keys, i - L, L);
      if (!cur.primitive) continue;
      const reps = Math.floor((cur.len + L) / L);
      if (cur.run === undefined) {
        // Of exact size (a run is kept for the session's life) without a copy: pushed, a list gets 16 spare slots.
        const steps = new Array<number>(L + 1);
        for (let k = 0; k <= L; k++) steps[k] = ts[(i - L + k) % size]!;
        cur.run = { block: L, start: ts[(i - L) % size]!, end: state.t, reps, steps, tool: tools[(i - L) % size]! };
        if (reps >= 2 && this.history) this.all = appended(this.all, cur.run);
        (grown ??= []).push(cur.run);
        continue;
      }
      cur.run.end = state.t;
      cur.run.steps = appended(cur.run.steps, state.t);
      if (reps > cur.run.reps) {
        if (cur.run.reps < 2 && reps >= 2 && this.history) this.all = appended(this.all, cur.run);
        cur.run.reps = reps;
        (grown ??= []).push(cur.run);
      }
    }
    return grown ?? NO_RUNS;
  }

  runs(): CycleRun[] {
    return this.all.filter((r) => r.reps >= 2).sort((a, b) => a.start - b.start || a.block - b.block);
  }
}
