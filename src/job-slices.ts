/**
 * A scoring job's work in slices: a job yields its thread once it has worked JOB_SLICE_MS since it last did. A
 * worker thread runs every job sent to it at once (score-pool.ts sends another tenant's job beside a tenant's two),
 * but a trajectory was scored in one go: one tenant's `POST /v1/score` of steps each costing a bash parse's CPU
 * backstop held the worker, and every other tenant's scoring queued behind it, for as long as it ran (two of
 * 60 such steps: 75 s; docs/reliability.md, T97). Inline (no workers), the same slices give the event loop back.
 */
import type { Scorer, StepResult } from './core/scorer-api.js';
import type { Step } from './core/types.js';

export const JOB_SLICE_MS = 10;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Calls `each` on every item in order, yielding a turn of the loop after each JOB_SLICE_MS of work. */
export async function eachInSlices<T>(items: Iterable<T>, each: (item: T, index: number) => void): Promise<void> {
  let since = performance.now();
  let i = 0;
  for (const item of items) {
    each(item, i++);
    if (performance.now() - since < JOB_SLICE_MS) continue;
    await nextTurn();
    since = performance.now();
  }
}

/**
 * Pushes `steps` into `scorer` in order, yielding a turn of the loop after each JOB_SLICE_MS of work; `each` sees every
 * step's result and its index. The one loop of every job that scores a whole trajectory.
 */
export function pushInSlices(scorer: Pick<Scorer, 'push'>, steps: Iterable<Step>, each?: (result: StepResult, index: number) => void): Promise<void> {
  return eachInSlices(steps, (step, i) => {
    const result = scorer.push(step);
    each?.(result, i);
  });
}
