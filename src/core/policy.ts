/**
 * Early-stop policy (method.md section 8): per signal kind, the thresholds at
 * which a signal fires and whether it is a `warn` or a `stop`. A `null`
 * threshold turns that level off. `DEFAULT_POLICY` is what `steplens calibrate`
 * picks on the public corpus (../shared/corpus, 35 passing and 16 failing runs)
 * under a 5 % false-stop bound: stop at 5 blind retries in one episode, at 40
 * exploration steps in a row, or below a score of 10 after 5 steps; the other
 * kinds only warn. In-sample it stops 1 of 35 passing runs and saves 29 % of
 * the failing runs' tokens (README, "Early-stop policy"); budgets are off.
 * (The score floor moved from 45 after 30 when the reference-free weights of
 * issue 15 changed the reference-free totals.)
 */
import { z } from 'zod';
import { err, ok, type Result } from '../errors.js';
import type { Severity } from './types.js';
import { deepFreeze, formatIssues } from './config.js';

/** Count thresholds of one signal kind: fire `warn` at `warn`, `stop` at `stop` (null = never). */
export interface Levels {
  warn: number | null;
  stop: number | null;
}

export interface Policy {
  /** Retries in one blind-retry episode. */
  blindRetry: Levels;
  /** Failed edit → verify cycles on the same file. */
  regressionLoop: Levels;
  /** Occurrences in a row of one repeating block of `minBlock`..`maxBlock` state hashes. */
  cycle: Levels & { minBlock: number; maxBlock: number };
  /** Consecutive E states (O states neither extend nor break a streak). */
  explorationStreak: Levels;
  /** Running composite below `floor` once at least `minSteps` steps were pushed; `severity` null = off. */
  lowScore: { floor: number; minSteps: number; severity: Severity | null };
  /** Forecast P(pass) below `floor` (0-1) once at least `minSteps` steps were pushed; needs a forecast model (`serve --forecast`); `severity` null = off. */
  lowForecast: { floor: number; minSteps: number; severity: Severity | null };
  /** Step and token (sum of state costs) budgets; null = no budget. */
  budget: { maxSteps: number | null; maxTokens: number | null; severity: Severity };
}

export const DEFAULT_POLICY: Policy = deepFreeze({
  blindRetry: { warn: 2, stop: 5 },
  regressionLoop: { warn: 3, stop: null },
  cycle: { warn: 3, stop: null, minBlock: 2, maxBlock: 4 },
  explorationStreak: { warn: 20, stop: 40 },
  lowScore: { floor: 10, minSteps: 5, severity: 'stop' },
  lowForecast: { floor: 0.05, minSteps: 20, severity: null },
  budget: { maxSteps: null, maxTokens: null, severity: 'stop' },
});

const level = z.number().int().positive().nullable();
const levels = z.object({ warn: level, stop: level }).partial().strict();
const severity = z.enum(['warn', 'stop']);

/** Zod schema of a partial policy override (the protocol's `start.policy`, the CLI's policy file). */
export const policyInputSchema = z
  .object({
    blindRetry: levels,
    regressionLoop: levels,
    cycle: z
      .object({ warn: level, stop: level, minBlock: z.number().int().min(2), maxBlock: z.number().int().min(2) })
      .partial()
      .strict(),
    explorationStreak: levels,
    lowScore: z
      .object({ floor: z.number().finite().min(0).max(100), minSteps: z.number().int().nonnegative(), severity: severity.nullable() })
      .partial()
      .strict(),
    lowForecast: z
      .object({ floor: z.number().finite().min(0).max(1), minSteps: z.number().int().nonnegative(), severity: severity.nullable() })
      .partial()
      .strict(),
    budget: z
      .object({ maxSteps: level, maxTokens: z.number().finite().positive().nullable(), severity })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export type PolicyInput = z.infer<typeof policyInputSchema>;

function checkLevels(name: string, l: Levels): string | undefined {
  if (l.warn !== null && l.stop !== null && l.warn >= l.stop) {
    return `${name}.warn (${l.warn}) must be below ${name}.stop (${l.stop})`;
  }
  return undefined;
}

/**
 * Validates a partial deep override of `DEFAULT_POLICY` (undefined/null = defaults).
 * Errors name the offending field; warn must be below stop when both are set.
 */
export function resolvePolicy(input: unknown, base: Policy = DEFAULT_POLICY): Result<Policy, string> {
  if (input === undefined || input === null) return ok(base);
  const parsed = policyInputSchema.safeParse(input);
  if (!parsed.success) return err(`invalid policy: ${formatIssues(parsed.error)}`);
  const o = parsed.data;
  const p: Policy = {
    blindRetry: { ...base.blindRetry, ...o.blindRetry },
    regressionLoop: { ...base.regressionLoop, ...o.regressionLoop },
    cycle: { ...base.cycle, ...o.cycle },
    explorationStreak: { ...base.explorationStreak, ...o.explorationStreak },
    lowScore: { ...base.lowScore, ...o.lowScore },
    lowForecast: { ...base.lowForecast, ...o.lowForecast },
    budget: { ...base.budget, ...o.budget },
  };
  const problem =
    checkLevels('blindRetry', p.blindRetry) ??
    checkLevels('regressionLoop', p.regressionLoop) ??
    checkLevels('cycle', p.cycle) ??
    checkLevels('explorationStreak', p.explorationStreak) ??
    (p.cycle.minBlock > p.cycle.maxBlock ? `cycle.minBlock (${p.cycle.minBlock}) must not exceed cycle.maxBlock (${p.cycle.maxBlock})` : undefined) ??
    (p.cycle.warn === 1 || p.cycle.stop === 1 ? 'cycle thresholds count occurrences in a row and must be at least 2' : undefined);
  return problem === undefined ? ok(p) : err(`invalid policy: ${problem}`);
}
