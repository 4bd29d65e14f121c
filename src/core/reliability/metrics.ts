/** Multi-trial reliability metrics of one configuration (method.md section 9). */
import { mean, median } from '../stats/descriptive.js';
import { patchChurn } from './patch-churn.js';
import type { Attempt, ReliabilityMetrics } from './types.js';

const share = (num: number, den: number): number | null => (den > 0 ? num / den : null);

/** Groups attempts by task, keeping first-seen task order. */
export function attemptsByTask(attempts: readonly Attempt[]): Map<string, Attempt[]> {
  const byTask = new Map<string, Attempt[]>();
  for (const a of attempts) {
    const list = byTask.get(a.task);
    if (list) list.push(a);
    else byTask.set(a.task, [a]);
  }
  return byTask;
}

/** The churn of one attempt (see `patchChurn`). */
export function attemptChurn(a: Attempt): number {
  return patchChurn(a.patchLines, a.editVolume);
}

/**
 * Section 9 metrics over all attempts of one configuration. Every attempt
 * record is a planned attempt; `k` is the number of attempts of each task.
 * - p_attempt = passes / completed attempts;
 * - AllPass@k conditional: among tasks with no censored attempt, the share
 *   whose attempts all pass; conservative: over all tasks, censored = fail;
 * - pass@k: share of tasks with at least one pass;
 * - CR = completed / planned; JCR_k: share of tasks whose attempts all completed;
 * - PCR: mean (and median) per-attempt churn over completed attempts;
 * - ATFR: agent-induced failures / tool calls, pooled over completed attempts.
 */
export function reliabilityMetrics(attempts: readonly Attempt[]): ReliabilityMetrics {
  const groups = [...attemptsByTask(attempts).values()];
  const completedAttempts = attempts.filter((a) => a.outcome !== 'censored');
  const passes = attempts.filter((a) => a.outcome === 'pass').length;
  const uncensored = groups.filter((g) => g.every((a) => a.outcome !== 'censored'));
  const allPass = (g: Attempt[]) => g.every((a) => a.outcome === 'pass');
  const churns = completedAttempts.map(attemptChurn);
  const calls = completedAttempts.reduce((s, a) => s + a.toolCalls, 0);
  const failures = completedAttempts.reduce((s, a) => s + a.toolFailures, 0);
  const ks = groups.map((g) => g.length);
  return {
    tasks: groups.length,
    kMin: ks.length ? Math.min(...ks) : 0,
    kMax: ks.length ? Math.max(...ks) : 0,
    planned: attempts.length,
    completed: completedAttempts.length,
    passes,
    pAttempt: share(passes, completedAttempts.length),
    allPassConditional: share(uncensored.filter(allPass).length, uncensored.length),
    uncensoredTasks: uncensored.length,
    allPassConservative: share(groups.filter(allPass).length, groups.length),
    passAtK: share(groups.filter((g) => g.some((a) => a.outcome === 'pass')).length, groups.length),
    cr: share(completedAttempts.length, attempts.length),
    jcr: share(uncensored.length, groups.length),
    pcr: mean(churns),
    pcrMedian: median(churns),
    atfr: share(failures, calls),
  };
}
