/**
 * Long step sequences made of real corpus steps, for benchmarks that need more
 * steps than one trajectory has: trajectories are concatenated in corpus order
 * (cycling when the corpus runs out) and renumbered (`t` = position). Never
 * synthetic text.
 */
import type { Step } from '../src/core/types.js';
import type { CorpusTrajectory } from './corpus.js';

/** Every step of the corpus, trajectory after trajectory. */
function allSteps(trajectories: readonly CorpusTrajectory[]): Step[] {
  const steps = trajectories.flatMap((t) => t.steps);
  if (steps.length === 0) throw new Error('the corpus holds no steps');
  return steps;
}

/** `n` consecutive real steps starting at corpus step `offset` (cycling), renumbered 0..n-1. */
export function realSteps(trajectories: readonly CorpusTrajectory[], offset: number, n: number): Step[] {
  const steps = allSteps(trajectories);
  return Array.from({ length: n }, (_, i) => ({ ...steps[(offset + i) % steps.length]!, t: i }));
}

/**
 * A trajectory of `length` real steps in which the same `probe` steps sit at
 * each of `at` (the probe's first step at index `a` for each `a` of `at`), so
 * that the cost of the same steps can be compared at different positions; the
 * rest is corpus steps in order. Windows must not overlap or pass `length`.
 */
export function longTrajectory(trajectories: readonly CorpusTrajectory[], length: number, probe: readonly Step[], at: readonly number[]): Step[] {
  const filler = allSteps(trajectories);
  const starts = [...at].sort((a, b) => a - b);
  starts.forEach((a, i) => {
    if (a < 0 || a + probe.length > length || (i > 0 && a < starts[i - 1]! + probe.length)) {
      throw new Error(`probe windows overlap or leave the trajectory (at ${starts.join(', ')}, probe ${probe.length}, length ${length})`);
    }
  });
  const out: Step[] = [];
  let next = 0;
  while (out.length < length) {
    const start = starts.find((a) => a === out.length);
    if (start !== undefined) for (const s of probe) out.push({ ...s, t: out.length });
    else out.push({ ...filler[next++ % filler.length]!, t: out.length });
  }
  return out;
}

/**
 * The steps of `long` between its first probe window and its second (`at`: the windows' first steps): a bench pushes
 * them through a throwaway scorer before each run, so that the probe's steps were last handled as many steps before
 * the first window as before the second. Without it the first window of a run came ~20 steps after the previous run's
 * second window of the same steps, still in the CPU's caches: the labeler cost half as much there, an effect of
 * recency, not of the session's size (bench/README.md, "label20").
 */
export function coolingSteps(long: readonly Step[], probeLength: number, at: readonly number[]): Step[] {
  const [first, second] = [...at].sort((a, b) => a - b);
  if (first === undefined || second === undefined || second < first + probeLength) throw new Error(`cooling needs two probe windows apart (at ${at.join(', ')})`);
  return long.slice(first + probeLength, second);
}
