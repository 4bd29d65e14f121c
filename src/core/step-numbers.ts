/**
 * Steps numbered as the server numbers them: `t` is the step's 0-based position in the run (`POST /v1/score` and a
 * session replace the log's own `t`, server/trajectory.ts). A `steplens` log keeps its records' `t`, which need not
 * run 0..n-1 (a skipped line, the tail of a longer run): `score` then named other steps than the server, in the same
 * signals and waste (review s42). The server's scoring and every command number the steps they read with this.
 */
import type { Step } from './types.js';

/** `steps` with `t` = position; the same array when they are numbered so already (every raw format's parser does). */
export function numberedSteps(steps: Step[]): Step[];
export function numberedSteps(steps: readonly Step[]): readonly Step[];
export function numberedSteps(steps: readonly Step[]): readonly Step[] {
  return steps.every((s, i) => s.t === i) ? steps : steps.map((s, i) => ({ ...s, t: i }));
}
