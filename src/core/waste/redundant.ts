/**
 * Redundant steps (method.md section 10): a state that changes nothing and
 * repeats what an earlier state of the same stage already gave, with nothing
 * changed in between (no file, tree or environment change, no hand-over): the
 * same action (equal hash, not a variant), or a read of lines of a file that an
 * earlier read of that file already showed, every one of them. Blind retries
 * are reported as such, not again here.
 */
import { changesAnything, REPEAT_EXEMPT_KINDS } from '../signals/repeats.js';
import { runToEnd, STATES_PER_STEP } from '../in-steps.js';
import type { LineRange, State } from '../types.js';

/** A range's first and last line (a range may be given last line first). */
function bounds(range: LineRange): [number, number] {
  return range[0] <= range[1] ? [range[0], range[1]] : [range[1], range[0]];
}

/** True when every line of `later` lies in `earlier`. */
function contains(earlier: LineRange, later: LineRange): boolean {
  const [elo, ehi] = bounds(earlier);
  const [llo, lhi] = bounds(later);
  return llo >= elo && lhi <= ehi;
}

/**
 * True when `later` gives nothing `earlier` did not: the same action, or a
 * read of lines of a file that `earlier` read, all of them; never when
 * `earlier` failed (it showed an error). **Choice**: anything else is compared
 * by its hash only: a search of a file says something no window of it does; a
 * read without a range may have been abbreviated, cut off or filtered
 * (`cat f | grep -A 5 x`); a window moved by a few lines (SWE-agent's `goto`
 * shows 100 lines) was moved to see the new ones.
 */
export function repeats(earlier: State, later: State): boolean {
  if (earlier.failed) return false;
  if (earlier.hash === later.hash) return later.variant !== true;
  if (earlier.kind !== 'read' || later.kind !== 'read' || earlier.file === undefined || earlier.file !== later.file) return false;
  return earlier.range !== undefined && later.range !== undefined && contains(earlier.range, later.range);
}

export interface RedundantStep {
  /** The redundant state. */
  t: number;
  /** The earlier state it repeats. */
  of: number;
  tool: string;
}

/**
 * Reads of one file looked back over for a read that already showed every line (the most recent first). Past it
 * an older read is not compared: with no change in between, 256 reads of one file in one stage (no real run
 * comes near; 5,000 steps of a hostile one took 160 ms a session at `end`, quadratic) are enough to find the one
 * a read repeats.
 */
export const READS_LOOKED_BACK = 256;

/** An earlier read that a later read of the same file may repeat: its lines `lo`..`hi`, `i` its index in the states. */
interface EarlierRead {
  i: number;
  t: number;
  hash: string;
  lo: number;
  hi: number;
}

/**
 * Finds redundant steps. `retries` holds the steps already counted as blind
 * retries (skipped here). A `finish` that does not end the run starts afresh
 * (a confirm turn, CodeR's next sub-agent), like a change.
 *
 * Each state is answered from indexes of the states since the last change (the most recent non-failed state
 * of each stage and hash; each stage and file's reads with a range) instead of scanning them all back: what
 * the scan found (the most recent earlier state it `repeats`), in about constant time a step.
 */
export function findRedundantSteps(states: readonly State[], retries: ReadonlySet<number>): RedundantStep[] {
  return runToEnd(findRedundantStepsInSteps(states, retries));
}

/**
 * Earlier reads compared that cost about as much as one state: a slice of states that each look back over 256 reads
 * (a hostile run's 5,000 steps) took 10-40 ms cold at load 7 when counted by states only.
 */
const READS_PER_STATE = 32;

/** {@link findRedundantSteps} in steps: it yields every {@link STATES_PER_STEP} states, an earlier read compared counted as 1/{@link READS_PER_STATE} of a state. */
export function* findRedundantStepsInSteps(states: readonly State[], retries: ReadonlySet<number>): Generator<void, RedundantStep[]> {
  const out: RedundantStep[] = [];
  // The indexes hold every state of the call, by stage, then by hash (the state's own string) or file; an entry
  // counts only when its state comes after the last change (`since`, an index in `states`). Emptying them at each
  // change made two maps at every change and a map per stage after it, and a key string per read: ~0.28 KB a step
  // of a session at its end (bench/README.md, "Lifecycle CPU per step, seventh pass").
  const lastByHash = new Map<string, Map<string, number>>();
  const readsByFile = new Map<string, Map<string, EarlierRead[]>>();
  let since = -1;
  let work = 0;
  for (let i = 0; i < states.length; i++) {
    if (work >= STATES_PER_STEP) {
      work = 0;
      yield;
    }
    work += 1;
    const s = states[i]!; // i < length
    if (changesAnything(s) || s.kind === 'finish') {
      since = i;
      continue;
    }
    if (REPEAT_EXEMPT_KINDS.has(s.kind)) continue;
    let sameStage = lastByHash.get(s.stage);
    let stageReads = readsByFile.get(s.stage);
    const file = s.kind === 'read' && s.range !== undefined ? s.file : undefined;
    const range = file !== undefined ? s.range! : undefined;
    const lo = range === undefined ? 0 : Math.min(range[0], range[1]);
    const hi = range === undefined ? 0 : Math.max(range[0], range[1]);
    if (!retries.has(s.t)) {
      // The same action (not a variant of it), else a read whose lines an earlier read of the file showed.
      const same = s.variant === true ? undefined : sameStage?.get(s.hash);
      let of = same !== undefined && same > since ? states[same]!.t : -1; // same < i: an earlier state's index
      const reads = file !== undefined ? stageReads?.get(file) : undefined;
      if (reads !== undefined) {
        let k = reads.length - 1;
        for (; k >= Math.max(0, reads.length - READS_LOOKED_BACK) && reads[k]!.i > since && reads[k]!.t > of; k--) {
          const e = reads[k]!;
          if (e.hash !== s.hash && e.lo <= lo && hi <= e.hi) {
            of = e.t;
            break;
          }
        }
        work += (reads.length - 1 - k) / READS_PER_STATE;
      }
      if (of >= 0) out.push({ t: s.t, of, tool: s.tool });
    }
    // A failed state showed an error: nothing repeats it.
    if (s.failed) continue;
    if (sameStage === undefined) lastByHash.set(s.stage, (sameStage = new Map<string, number>()));
    sameStage.set(s.hash, i);
    if (file !== undefined) {
      if (stageReads === undefined) readsByFile.set(s.stage, (stageReads = new Map<string, EarlierRead[]>()));
      const reads = stageReads.get(file);
      const read = { i, t: s.t, hash: s.hash, lo, hi };
      if (reads === undefined) stageReads.set(file, [read]);
      else reads.push(read);
    }
  }
  return out;
}
