/**
 * The recommended partial policy. A stop level is "decided" when the data chose
 * a threshold or showed none qualifies (then it is turned off). A warn level
 * the data chose is used; otherwise the base policy's warn stays (**choice**: a
 * warn costs no run, and "stopped no failing run" is no reason to silence it).
 * A kind with no decided level (too few runs, never fired) is left out, so it
 * keeps the base policy's defaults. A warn at or above the stop is dropped.
 */
import type { Levels, Policy, PolicyInput } from '../policy.js';
import type { CalibrationKind, KindTable, LevelChoice } from './types.js';

const decided = (c: LevelChoice): boolean => c.threshold !== null || c.reason === 'none_qualifies';

function countLevels(t: KindTable, base: Levels): Levels | undefined {
  if (!decided(t.warn) && !decided(t.stop)) return undefined;
  const stop = decided(t.stop) ? t.stop.threshold : base.stop;
  let warn = t.warn.threshold ?? base.warn;
  if (warn !== null && stop !== null && warn >= stop) warn = null;
  return { warn, stop };
}

function lowScore(t: KindTable, base: Policy): PolicyInput['lowScore'] {
  const minSteps = base.lowScore.minSteps;
  if (t.stop.threshold !== null) return { floor: t.stop.threshold, minSteps, severity: 'stop' };
  if (t.warn.threshold !== null) return { floor: t.warn.threshold, minSteps, severity: 'warn' };
  return t.warn.reason === 'none_qualifies' ? { severity: null } : undefined;
}

/** Builds the partial policy from the kinds' recommendations. */
export function recommendedPolicy(kinds: Record<CalibrationKind, KindTable>, base: Policy): PolicyInput {
  const out: PolicyInput = {};
  const br = countLevels(kinds.blindRetry, base.blindRetry);
  if (br) out.blindRetry = br;
  const rl = countLevels(kinds.regressionLoop, base.regressionLoop);
  if (rl) out.regressionLoop = rl;
  const cy = countLevels(kinds.cycle, base.cycle);
  if (cy) out.cycle = { ...cy, minBlock: base.cycle.minBlock, maxBlock: base.cycle.maxBlock };
  const es = countLevels(kinds.explorationStreak, base.explorationStreak);
  if (es) out.explorationStreak = { ...es, resetOnWrite: base.explorationStreak.resetOnWrite };
  const na = countLevels(kinds.noAction, base.noAction);
  if (na) out.noAction = na;
  const ls = lowScore(kinds.lowScore, base);
  if (ls) out.lowScore = ls;
  return out;
}
