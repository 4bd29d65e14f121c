/**
 * 95 % intervals of the multi-trial metrics (method.md section 13), with the task as the unit: a task's attempts
 * are not independent (a task one attempt passes, the others mostly pass too), so no figure counts its attempts as
 * independent draws.
 *
 * - Shares of tasks (AllPass@k both ways, pass@k, JCR): the tasks are independent, so Wilson's interval over them,
 *   as the report gives a pass rate over runs; none below MIN_RESAMPLE_UNITS tasks in the denominator.
 * - Rates pooled over attempts (CR over planned attempts, ATFR over tool calls): Wilson at the effective n of the
 *   tasks' design effect, as p_attempt (`clusteredRateInterval`): none below MIN_RESAMPLE_UNITS tasks, or when the
 *   attempts (calls) are so unevenly spread that Kish's effective number of tasks is below it.
 * - PCR (a mean churn over completed attempts): the seeded percentile bootstrap resampling tasks, each with all its
 *   completed attempts (`clusteredMeanInterval`), under the same minimum.
 */
import { clusteredMeanInterval, clusteredRateInterval } from '../stats/clustered.js';
import { bootstrapSettings, resamplable, type BootstrapOptions } from '../stats/bootstrap.js';
import { wilsonInterval, type Interval } from '../stats/interval.js';
import { attemptChurn, attemptsByTask } from './metrics.js';
import type { Attempt } from './types.js';

/** The interval of each metric of `ReliabilityMetrics` but p_attempt's (null: too few tasks to tell, or no denominator). */
export interface ReliabilityIntervals {
  allPassConditionalInterval: Interval | null;
  allPassConservativeInterval: Interval | null;
  passAtKInterval: Interval | null;
  crInterval: Interval | null;
  jcrInterval: Interval | null;
  pcrInterval: Interval | null;
  atfrInterval: Interval | null;
}

/** Wilson's interval of `k` of `n` tasks, none below MIN_RESAMPLE_UNITS tasks. */
function taskShareInterval(k: number, n: number, level: number): Interval | null {
  return resamplable(n) ? wilsonInterval(k, n, level) : null;
}

/** The intervals of one configuration's metrics over `attempts` (every attempt record a planned attempt). */
export function reliabilityIntervals(attempts: readonly Attempt[], options: BootstrapOptions = {}): ReliabilityIntervals {
  const { level } = bootstrapSettings(options);
  const groups = [...attemptsByTask(attempts).values()];
  const completedOf = (g: readonly Attempt[]) => g.filter((a) => a.outcome !== 'censored');
  const allPass = (g: readonly Attempt[]) => g.every((a) => a.outcome === 'pass');
  const uncensored = groups.filter((g) => g.every((a) => a.outcome !== 'censored'));
  const sum = (g: readonly Attempt[], f: (a: Attempt) => number) => g.reduce((s, a) => s + f(a), 0);
  return {
    allPassConditionalInterval: taskShareInterval(uncensored.filter(allPass).length, uncensored.length, level),
    allPassConservativeInterval: taskShareInterval(groups.filter(allPass).length, groups.length, level),
    passAtKInterval: taskShareInterval(groups.filter((g) => g.some((a) => a.outcome === 'pass')).length, groups.length, level),
    jcrInterval: taskShareInterval(uncensored.length, groups.length, level),
    crInterval: clusteredRateInterval(
      groups.map((g) => ({ k: completedOf(g).length, n: g.length })),
      level,
    ),
    pcrInterval: clusteredMeanInterval(
      groups.map((g) => completedOf(g).map(attemptChurn)),
      options,
    ),
    atfrInterval: clusteredRateInterval(
      groups.map((g) => ({ k: sum(completedOf(g), (a) => a.toolFailures), n: sum(completedOf(g), (a) => a.toolCalls) })),
      level,
    ),
  };
}
