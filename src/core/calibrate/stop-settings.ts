/**
 * Stop settings ↔ policies: the full policy a grid point stands for (stops
 * from the grid, warn levels from a warn source) and the stop settings of an
 * existing policy. Also the order that breaks ties between equally good points.
 */
import type { Levels, Policy } from '../policy.js';
import type { StopSettings } from './tradeoff-types.js';

const COUNT_KINDS = ['blindRetry', 'regressionLoop', 'cycle', 'explorationStreak'] as const;

/** The stop settings of `policy` (a low-score signal counts only at severity `stop`; budgets are not part of the grid). */
export function settingsOf(policy: Policy): StopSettings {
  const low = policy.lowScore;
  return {
    blindRetry: policy.blindRetry.stop,
    regressionLoop: policy.regressionLoop.stop,
    cycle: policy.cycle.stop,
    explorationStreak: policy.explorationStreak.stop,
    lowScore: low.severity === 'stop' ? { floor: low.floor, minSteps: low.minSteps } : null,
  };
}

const levels = (stop: number | null, warnFrom: Levels): Levels => ({
  warn: warnFrom.warn !== null && (stop === null || warnFrom.warn < stop) ? warnFrom.warn : null,
  stop,
});

/**
 * The full policy of `settings`: its stops; the warn levels of `warnSource`
 * where they lie below the stop; a low score that does not stop keeps
 * `warnSource`'s floor as a warn (if it has one); cycle block sizes from
 * `warnSource`; budgets off.
 */
export function policyFor(settings: StopSettings, warnSource: Policy): Policy {
  const low = warnSource.lowScore;
  return {
    blindRetry: levels(settings.blindRetry, warnSource.blindRetry),
    regressionLoop: levels(settings.regressionLoop, warnSource.regressionLoop),
    cycle: { ...levels(settings.cycle, warnSource.cycle), minBlock: warnSource.cycle.minBlock, maxBlock: warnSource.cycle.maxBlock },
    explorationStreak: levels(settings.explorationStreak, warnSource.explorationStreak),
    lowScore: settings.lowScore !== null
      ? { ...settings.lowScore, severity: 'stop' }
      : { floor: low.floor, minSteps: low.minSteps, severity: low.severity === null ? null : 'warn' },
    lowForecast: warnSource.lowForecast,
    budget: { maxSteps: null, maxTokens: null, severity: 'stop' },
  };
}

/** Number of kinds that stop. */
export const activeStops = (s: StopSettings): number =>
  COUNT_KINDS.filter((k) => s[k] !== null).length + (s.lowScore !== null ? 1 : 0);

/**
 * Negative when `a` is more conservative than `b`: fewer kinds stop; then,
 * kind by kind, a stop that is off or a larger count, a lower floor, a larger minSteps.
 */
export function compareConservative(a: StopSettings, b: StopSettings): number {
  const d = activeStops(a) - activeStops(b);
  if (d !== 0) return d;
  for (const k of COUNT_KINDS) {
    const x = a[k] ?? Infinity;
    const y = b[k] ?? Infinity;
    if (x !== y) return y - x;
  }
  const la = a.lowScore;
  const lb = b.lowScore;
  if (la === null || lb === null) return (la === null ? 0 : 1) - (lb === null ? 0 : 1);
  return la.floor - lb.floor || lb.minSteps - la.minSteps;
}

/** A one-line description, e.g. `blindRetry 3, lowScore <20 after 15`. */
export function describeSettings(s: StopSettings): string {
  const parts = COUNT_KINDS.filter((k) => s[k] !== null).map((k) => `${k} ${s[k]}`);
  if (s.lowScore !== null) parts.push(`lowScore <${s.lowScore.floor} after ${s.lowScore.minSteps}`);
  return parts.length > 0 ? parts.join(', ') : 'no stop';
}
