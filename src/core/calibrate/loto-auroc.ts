/**
 * The AUROC of one score with each task's runs left out in turn, for every task at once (the weight fit's
 * leave-one-task-out folds: 287 tasks × 1,771 grid weights × 2 modes made `calibrate --weights` sort ~1 M samples
 * sets, 48 s on the calibration set). The Mann-Whitney U of all runs is counted once; a fold's U is it minus the
 * pairs the left-out task's runs are in (each run's pairs with the whole other side, by binary search), plus the
 * pairs inside the task, which were taken away twice. Whole and half pair counts are exact in floating point, so
 * each fold's AUROC is the very number `auroc` gives for the runs of the other tasks.
 */

/** Index of the first element of ascending `xs` that is >= `x` (`strict`: > `x`). */
function bound(xs: Float64Array, x: number, strict: boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (xs[mid]! < x || (strict && xs[mid] === x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The pairs of a positive scored `p` with a negative scored `n`: 1 when p > n, ½ when equal. */
const pair = (p: number, n: number): number => (p > n ? 1 : p === n ? 0.5 : 0);

/**
 * The runs of one mode: their scores, outcomes, and each task's runs by index (`byTask[t]` lists the positions in
 * `x` of task t's runs; a task with no run in this mode has an empty list).
 */
export interface LotoRuns {
  x: Float64Array;
  passed: readonly boolean[];
  byTask: ReadonlyArray<readonly number[]>;
}

/**
 * For each task t, the AUROC of the runs of every other task (positives = passed), or NaN where it is undefined
 * (no positive or no negative left). Scores must not be NaN (the caller checks; `auroc`'s sort would place them).
 */
export function aurocsWithoutEachTask(runs: LotoRuns): Float64Array {
  const { x, passed, byTask } = runs;
  let nPos = 0;
  for (const p of passed) if (p) nPos++;
  const pos = new Float64Array(nPos);
  const neg = new Float64Array(x.length - nPos);
  let ip = 0;
  let ineg = 0;
  for (let i = 0; i < x.length; i++) {
    if (passed[i]) pos[ip++] = x[i]!;
    else neg[ineg++] = x[i]!;
  }
  pos.sort();
  neg.sort();
  // Each run's pairs with the whole other side.
  const pairs = new Float64Array(x.length);
  let u = 0;
  for (let i = 0; i < x.length; i++) {
    const v = x[i]!;
    if (passed[i]) {
      const below = bound(neg, v, false);
      pairs[i] = below + (bound(neg, v, true) - below) / 2;
      u += pairs[i]!;
    } else {
      const atOrBelow = bound(pos, v, true);
      pairs[i] = pos.length - atOrBelow + (atOrBelow - bound(pos, v, false)) / 2;
    }
  }
  const out = new Float64Array(byTask.length);
  for (let t = 0; t < byTask.length; t++) {
    const members = byTask[t]!;
    let tp = 0;
    let taken = 0;
    for (const i of members) {
      if (passed[i]) tp++;
      taken += pairs[i]!;
    }
    let inside = 0;
    for (const i of members) if (passed[i]) for (const j of members) if (!passed[j]) inside += pair(x[i]!, x[j]!);
    const p = nPos - tp;
    const n = neg.length - (members.length - tp);
    out[t] = p === 0 || n === 0 ? Number.NaN : (u - taken + inside) / (p * n);
  }
  return out;
}
