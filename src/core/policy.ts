/**
 * Early-stop policy (method.md section 8): per signal kind, the thresholds at
 * which a signal fires and whether it is a `warn` or a `stop`. A `null`
 * threshold turns that level off. `DEFAULT_POLICY` is meant for agents and
 * models it was never tuned on: `steplens calibrate --portable` picks it on
 * ../shared/corpus + ../shared/calibration (1002 runs, 192 passing, 15
 * agent + model sources; command in README "Early-stop policy"): leave one
 * source out at a time, a kind whose stop chosen without a source stopped more
 * than 2 % of that source's passing runs only warns, and the rest is chosen
 * under a 3 % upper bound (Clopper-Pearson, 95 %) with at most 2 % of any
 * source's passing runs stopped. Every kind was demoted so: it only warns.
 * `noAction 2` was its one stop until the labeler read mini-swe-agent's
 * FormatError turns (turns with no action): it then stopped 16 of 18 passing
 * gpt-5-mini runs, which recover from a few malformed replies in a row. No
 * fixed stop is right for every agent and model: calibrate per agent and model
 * (`--by`) or let the server's shadow mode choose one from reported outcomes.
 * The low-score warn floor (50 after 30 steps since refused edits stopped
 * counting as changes, 2026-12-05; 20 before, 35 with the weights before issue
 * 15's) reads the reference-free weights in sessions without a PTA.
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
  /**
   * Consecutive E states (O states neither extend nor break a streak). `resetOnWrite` (default true): an E state that
   * writes a file, a reproduction script, ends a streak as an I or V state does; false counts every E state, as the
   * method's spec does (15 of 26 warnings on passing runs fell on streaks with such a script: docs/early-stop.md).
   */
  explorationStreak: Levels & { resetOnWrite: boolean };
  /** Consecutive steps with no action to run (the model's turn held none: empty or unparsable output). */
  noAction: Levels;
  /** Running composite below `floor` once at least `minSteps` steps were pushed; `severity` null = off. */
  lowScore: { floor: number; minSteps: number; severity: Severity | null };
  /** Forecast P(pass) below `floor` (0-1) once at least `minSteps` steps were pushed; needs a forecast model (`serve --forecast`); `severity` null = off. */
  lowForecast: { floor: number; minSteps: number; severity: Severity | null };
  /** Step and token (sum of state costs) budgets; null = no budget. */
  budget: { maxSteps: number | null; maxTokens: number | null; severity: Severity };
}

export const DEFAULT_POLICY: Policy = deepFreeze({
  blindRetry: { warn: 2, stop: null },
  regressionLoop: { warn: 2, stop: null },
  cycle: { warn: 2, stop: null, minBlock: 2, maxBlock: 4 },
  explorationStreak: { warn: 10, stop: null, resetOnWrite: true },
  noAction: { warn: 2, stop: null },
  lowScore: { floor: 50, minSteps: 30, severity: 'warn' },
  lowForecast: { floor: 0.05, minSteps: 20, severity: null },
  budget: { maxSteps: null, maxTokens: null, severity: 'stop' },
});

/**
 * Longest cycle block a policy may ask for. The detector keeps a ring of `maxBlock + 1` states and checks every
 * block length up to it at each step: a session started with `cycle.maxBlock` 5,000,000 held the server 3.3 s
 * and 540 MB, and larger ones run it out of memory (T33). 64 is 16 times the default; a block of 64 states
 * repeated once is already 128 steps of one loop.
 */
export const MAX_CYCLE_BLOCK = 64;

/**
 * Zod schema of a partial policy override (the protocol's `start.policy`, the CLI's policy file), built on first
 * use (`z.lazy`): commands that never read a policy do not build it at start (issue 24).
 */
export const policyInputSchema = z.lazy(() => {
  const level = z.number().int().positive().nullable();
  const at = (what: string) => ({
    warn: level.describe(`Fire a warn signal at this many ${what} (null: never; default per DEFAULT_POLICY)`),
    stop: level.describe(`Fire a stop signal at this many ${what} (null: never); above warn`),
  });
  const levels = (what: string, about: string) => z.object(at(what)).partial().strict().describe(about);
  const severity = z.enum(['warn', 'stop']);

  return z
    .object({
      blindRetry: levels('retries', 'Blind retries: an action repeated with nothing changed in between, counted per episode'),
      regressionLoop: levels('cycles', 'Regression loops: edit, then a failing verification, of the same file, counted in cycles'),
      cycle: z
        .object({
          ...at('repetitions in a row (at least 2)'),
          minBlock: z.number().int().min(2).max(MAX_CYCLE_BLOCK).describe(`Shortest repeating block of states looked for (default 2, at most ${MAX_CYCLE_BLOCK})`),
          maxBlock: z.number().int().min(2).max(MAX_CYCLE_BLOCK).describe(`Longest repeating block of states looked for (default 4, at most ${MAX_CYCLE_BLOCK})`),
        })
        .partial()
        .strict()
        .describe('Cycles: one block of states repeated in a row'),
      explorationStreak: z
        .object({
          ...at('exploration steps in a row'),
          resetOnWrite: z.boolean().describe('An E step that writes a file (a reproduction script) ends a streak (default true; false: every E step counts)'),
        })
        .partial()
        .strict()
        .describe('Exploration streaks: E steps in a row (O steps neither extend nor break one)'),
      noAction: levels('turns in a row', 'No action: agent turns in a row with no runnable action (a format error, a bare message)'),
      lowScore: z
        .object({
          floor: z.number().finite().min(0).max(100).describe('Fire when the running score is below this (0-100)'),
          minSteps: z.number().int().nonnegative().describe('... once at least this many steps were scored'),
          severity: severity.nullable().describe('warn or stop; null: off'),
        })
        .partial()
        .strict()
        .describe('Low score: the running composite below a floor after some steps'),
      lowForecast: z
        .object({
          floor: z.number().finite().min(0).max(1).describe('Fire when P(pass | steps so far) is below this (0-1)'),
          minSteps: z.number().int().nonnegative().describe('... once at least this many steps were scored'),
          severity: severity.nullable().describe('warn or stop; null: off (the default)'),
        })
        .partial()
        .strict()
        .describe("Low forecast: the forecast model's P(pass | steps so far) below a floor after some steps (needs serve --forecast)"),
      budget: z
        .object({
          maxSteps: level.describe('Fire once the session has more steps than this (null: no budget)'),
          maxTokens: z.number().finite().positive().nullable().describe("Fire once the steps' tokens (prompt + completion, else characters / 4) pass this (null: no budget)"),
          severity: severity.describe('warn or stop (default stop)'),
        })
        .partial()
        .strict()
        .describe('Budgets on steps and tokens (off by default)'),
    })
    .partial()
    .strict()
    .describe('Partial early-stop policy: each field overrides the default (or server) policy field by field; a threshold fires once per episode');
});

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
    noAction: { ...base.noAction, ...o.noAction },
    lowScore: { ...base.lowScore, ...o.lowScore },
    lowForecast: { ...base.lowForecast, ...o.lowForecast },
    budget: { ...base.budget, ...o.budget },
  };
  const problem =
    checkLevels('blindRetry', p.blindRetry) ??
    checkLevels('regressionLoop', p.regressionLoop) ??
    checkLevels('cycle', p.cycle) ??
    checkLevels('explorationStreak', p.explorationStreak) ??
    checkLevels('noAction', p.noAction) ??
    (p.cycle.minBlock > p.cycle.maxBlock ? `cycle.minBlock (${p.cycle.minBlock}) must not exceed cycle.maxBlock (${p.cycle.maxBlock})` : undefined) ??
    (p.cycle.warn === 1 || p.cycle.stop === 1 ? 'cycle thresholds count occurrences in a row and must be at least 2' : undefined);
  return problem === undefined ? ok(p) : err(`invalid policy: ${problem}`);
}

/**
 * `policy` with every stop turned into a warn: a count kind warns at its warn
 * level, or at its stop level when it had no warn; a severity `stop` becomes
 * `warn`. What a policy in shadow enforces, and what `calibrate` writes when
 * the data cannot back any stop. Generic over the sections, so new kinds follow.
 */
export function warnOnly(policy: Policy): Policy {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(policy)) {
    const section = { ...(value as Record<string, unknown>) };
    if ('stop' in section && 'warn' in section) {
      section.warn = section.warn ?? section.stop;
      section.stop = null;
    }
    if (section.severity === 'stop') section.severity = 'warn';
    out[key] = section;
  }
  return out as unknown as Policy;
}

/** True when some kind of `policy` can stop a run. */
export function canStop(policy: Policy): boolean {
  return Object.values(policy).some((v) => {
    const section = v as Record<string, unknown>;
    if ('stop' in section && 'warn' in section) return section.stop !== null;
    if ('maxSteps' in section) return section.severity === 'stop' && (section.maxSteps !== null || section.maxTokens !== null);
    return section.severity === 'stop';
  });
}
