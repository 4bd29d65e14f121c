/**
 * A stop policy read as a predictor (docs/method.md section 16): a run it stops is predicted to fail. Its
 * separation, measured like every other score: within source (each source's AUROC of "not stopped" for
 * passing vs failing runs, i.e. 0.5 + (failing stopped − passing stopped) / 2 on that source; the headline
 * is their mean), within task (pass/fail pairs of one source and task), pooled beside source-only.
 */
import { separation, type Separation, type SeparationOptions } from '../stats/separation.js';
import type { EvaluatedPolicy, ModeName, TradeoffRun } from './tradeoff-types.js';

/** Per mode, the separation of the policy's stop decision over `runs` (aligned with `evaluated.runs`). */
export function stopSeparation(runs: readonly TradeoffRun[], evaluated: EvaluatedPolicy, options: SeparationOptions = {}): Record<ModeName, Separation> {
  const of = (m: ModeName) =>
    separation(
      runs.map((r, i) => ({ source: r.source ?? 'all', task: r.task, pass: r.passed, score: evaluated.runs[i]!.stopAt[m] === null ? 1 : 0 })),
      // Printed beside the pooled AUROC with its interval (it was a bare point; audit28).
      { ...options, sourceOnlyInterval: true },
    );
  return { referenceFree: of('referenceFree'), reference: of('reference') };
}
