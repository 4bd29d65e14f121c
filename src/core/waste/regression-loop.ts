/**
 * Regression loops (method.md section 10): edit → verification fails → edit of
 * the same file → verification fails again, repeated. A cycle is one or more
 * I-stage edits of the loop's file followed by one or more failing V runs
 * (test, script, other command); an edit whose command failed changed nothing
 * and does not count. A passing V run, an edit of another file, or an O step
 * that changes the tree or the environment (an install, a checkout, a
 * deletion: the next failure may be the environment's) closes the loop. A
 * trailing edit not yet verified is not part of the loop.
 */
import type { ActionKind, State } from '../types.js';
import { appended } from '../memory/small-arrays.js';

export interface RegressionLoop {
  id: number;
  file: string;
  /** Steps of each completed (failed) cycle. */
  cycles: number[][];
  tool: string;
}

const RUN_KINDS: ReadonlySet<ActionKind> = new Set(['run_test', 'run_script', 'run_other']);

export interface RegressionTracker {
  /** Adds a state; returns the loop when this state completed one more failed cycle. */
  add(state: State): RegressionLoop | undefined;
  /** Every loop with at least one completed cycle (none when made with `history` off). */
  loops(): RegressionLoop[];
}

/** `history`: keep every loop for `loops()` (off: only the open one, for callers that read what `add` returns). */
export function createRegressionTracker(history = true): RegressionTracker {
  return new RegressionLoops(history);
}

/** A class, not an object of closures: every session keeps one (its stop signals), and shares the methods. */
class RegressionLoops implements RegressionTracker {
  private all: RegressionLoop[] = [];
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
        open.pending = appended(open.pending, state.t);
      } else {
        this.open = file === undefined ? undefined : { loop: { id: -1, file, cycles: [], tool: state.tool }, pending: [state.t], phase: 'edited' };
      }
      return undefined;
    }
    if (open === undefined || state.stage !== 'V') return undefined;
    if (state.failed && RUN_KINDS.has(state.kind)) {
      const { loop } = open;
      if (open.phase === 'edited') {
        loop.cycles = appended(loop.cycles, appended(open.pending, state.t));
        open.pending = [];
        open.phase = 'failed';
        if (loop.id < 0) {
          loop.id = this.nextId++;
          if (this.history) this.all = appended(this.all, loop);
        }
        return loop;
      }
      const last = loop.cycles.length - 1;
      if (last >= 0) loop.cycles[last] = appended(loop.cycles[last]!, state.t);
      return undefined;
    }
    if (RUN_KINDS.has(state.kind)) this.open = undefined;
    return undefined;
  }

  loops(): RegressionLoop[] {
    return this.all;
  }
}
