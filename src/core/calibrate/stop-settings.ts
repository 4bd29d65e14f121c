/**
 * Stop settings ↔ policies: the full policy a grid point stands for (stops
 * from the grid, warn levels from a warn source) and the stop settings of an
 * existing policy. Also the order that breaks ties between equally good points.
 */
import { warnOnly, type Policy } from '../policy.js';
import { GRID_KINDS } from './grid-kinds.js';
import type { StopSettings } from './tradeoff-types.js';

type Loose = Record<string, unknown>;
const get = (s: StopSettings, key: string): unknown => (s as unknown as Loose)[key] ?? null;

/** The stop settings of `policy` (a low-score signal counts only at severity `stop`; budgets are not part of the grid). */
export function settingsOf(policy: Policy): StopSettings {
  return Object.fromEntries(GRID_KINDS.map((k) => [k.key, k.of(policy)])) as unknown as StopSettings;
}

/**
 * The full policy of `settings`: its stops; the warn levels of `warnSource`
 * where they lie below the stop; a low score that does not stop keeps
 * `warnSource`'s floor as a warn (if it has one); cycle block sizes from
 * `warnSource`; budgets off.
 */
export function policyFor(settings: StopSettings, warnSource: Policy): Policy {
  const start: Policy = { ...warnSource, budget: { maxSteps: null, maxTokens: null, severity: 'stop' } };
  return GRID_KINDS.reduce((p, k) => k.apply(p, get(settings, k.key), warnSource), start);
}

/**
 * {@link policyFor} of settings whose stops the data did not back, written as warnings. The budget is left as it is:
 * calibration never chooses one, and it is off anyway (its severity flipped to `warn` only when some stop had been
 * rejected, so the written policy's budget depended on a choice it did not make).
 */
export function warnOnlyPolicyFor(settings: StopSettings, warnSource: Policy): Policy {
  const policy = policyFor(settings, warnSource);
  return { ...warnOnly(policy), budget: policy.budget };
}

/** Number of kinds that stop. */
export const activeStops = (s: StopSettings): number => GRID_KINDS.filter((k) => get(s, k.key) !== null).length;

/**
 * Negative when `a` is more conservative than `b`: fewer kinds stop; then,
 * kind by kind, a stop that is off or a more conservative candidate.
 */
export function compareConservative(a: StopSettings, b: StopSettings): number {
  const d = activeStops(a) - activeStops(b);
  if (d !== 0) return d;
  for (const k of GRID_KINDS) {
    const x = get(a, k.key);
    const y = get(b, k.key);
    if (x === null && y === null) continue;
    if (x === null || y === null) return x === null ? -1 : 1;
    const c = k.conservative(x, y);
    if (c !== 0) return c;
  }
  return 0;
}

/** A one-line description, e.g. `blindRetry 3, lowScore <20 after 15`. */
export function describeSettings(s: StopSettings): string {
  const parts = GRID_KINDS.flatMap((k) => {
    const v = get(s, k.key);
    return v === null ? [] : [k.describe(v)];
  });
  return parts.length > 0 ? parts.join(', ') : 'no stop';
}
