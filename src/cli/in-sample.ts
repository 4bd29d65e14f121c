/**
 * `score` and `rank` with `--forecast`: a run the forecaster was trained on (listed in the file's `trainedRuns`,
 * core/forecast/fingerprint.ts) gets an in-sample pPass, which says more than the forecaster knows; as `report`
 * counts such runs, these commands name them on stderr.
 */
import { runFingerprint } from '../core/forecast/fingerprint.js';
import type { Step } from '../core/types.js';

/** The stderr warning naming the runs (by `names`) among `runs` the forecaster was trained on, or undefined when none. */
export function inSampleWarning(trained: ReadonlySet<string> | undefined, runs: ReadonlyArray<{ name: string; steps: readonly Step[] }>): string | undefined {
  if (trained === undefined) return undefined;
  const seen = runs.filter((r) => r.steps.length > 0 && trained.has(runFingerprint(r.steps))).map((r) => r.name);
  if (seen.length === 0) return undefined;
  const which = seen.length === 1 ? `${seen[0]} is a run` : `${seen.join(', ')} are runs`;
  return `warning: ${which} the forecaster was trained on: ${seen.length === 1 ? 'its' : 'their'} pPass is in-sample (optimistic)\n`;
}
