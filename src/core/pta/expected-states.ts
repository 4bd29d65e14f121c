/**
 * How many states a session scored against a PTA is expected to reach: the median length of the PTA's references
 * (`ReferenceStats.length`, each a run that passed). A session's columns (its states, step lines and matching's rows)
 * grow toward it in fewer copies (`nextRoomToward`, core/memory/small-arrays.ts): each copy outgrown is garbage that
 * lived long enough to be promoted with many sessions stepping in turn (bench/README.md, "gc22", "gc27").
 */
import type { Pta } from '../scorer-api.js';

/** The median remembered for each PTA, with the reference count it was taken at (a PTA being built grows in place). */
const known = new WeakMap<Pta, { references: number; states: number }>();

/** The median of `pta`'s reference lengths (0 with none), once per PTA object: every session start asks. */
export function expectedStates(pta: Pta): number {
  const refs = pta.references;
  const memo = known.get(pta);
  if (memo?.references === refs.length) return memo.states;
  const lengths = refs.map((r) => r.length).sort((a, b) => a - b);
  const n = lengths.length;
  const mid = n >> 1;
  // n > 0: mid < n, and mid - 1 >= 0 when n is even.
  const median = n === 0 ? 0 : n % 2 === 1 ? lengths[mid]! : (lengths[mid - 1]! + lengths[mid]!) / 2;
  const states = Number.isFinite(median) && median > 0 ? Math.ceil(median) : 0;
  known.set(pta, { references: n, states });
  return states;
}
