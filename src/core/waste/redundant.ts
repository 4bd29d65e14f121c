/**
 * Redundant steps (method.md section 10): a state that changes nothing and
 * repeats what an earlier state of the same stage already gave, with nothing
 * changed in between (no file, tree or environment change, no hand-over): the
 * same action (equal hash, not a variant), or a read of lines of a file that an
 * earlier read of that file already showed, every one of them. Blind retries
 * are reported as such, not again here.
 */
import { changesAnything, REPEAT_EXEMPT_KINDS } from '../signals/repeats.js';
import type { LineRange, State } from '../types.js';

/** True when every line of `later` lies in `earlier`. */
function contains(earlier: LineRange, later: LineRange): boolean {
  return Math.min(...later) >= Math.min(...earlier) && Math.max(...later) <= Math.max(...earlier);
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
 * Finds redundant steps. `retries` holds the steps already counted as blind
 * retries (skipped here). A `finish` that does not end the run starts afresh
 * (a confirm turn, CodeR's next sub-agent), like a change.
 */
export function findRedundantSteps(states: readonly State[], retries: ReadonlySet<number>): RedundantStep[] {
  const out: RedundantStep[] = [];
  let since = 0;
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!;
    if (changesAnything(s) || s.kind === 'finish') {
      since = i + 1;
      continue;
    }
    if (retries.has(s.t) || REPEAT_EXEMPT_KINDS.has(s.kind)) continue;
    for (let j = i - 1; j >= since; j--) {
      const e = states[j]!;
      if (e.stage === s.stage && !REPEAT_EXEMPT_KINDS.has(e.kind) && repeats(e, s)) {
        out.push({ t: s.t, of: e.t, tool: s.tool });
        break;
      }
    }
  }
  return out;
}
