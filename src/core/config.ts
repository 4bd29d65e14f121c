/**
 * Scoring configuration (method.md sections 3-7): composite weights, tier
 * thresholds, equivalence and smoothing constants, Lucky taxonomy and waste
 * settings. `DEFAULT_CONFIG` holds the method's defaults; `resolveConfig`
 * validates a partial deep override of it.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../errors.js';

/** Composite weights (normalised by their sum when the composite is computed). */
export interface Weights {
  struct: number;
  cov: number;
  coh: number;
  temp: number;
}

/**
 * Weights of the reference-free composite (`reference: "prior"`, no PTA): Φcoh
 * and Φtemp against the prior, plus process signals that need no reference
 * (issue 15): Φfocus = 1 − share of exploration steps, Φverify = 1 when a
 * verification step followed the last file change, Φbrevity = L / (L + steps),
 * Φedit = 1 once a non-test source file was changed, Φsettle = 3 / (3 + the
 * current exploration streak). Chosen by leave-one-source-out AUROC
 * (docs/forecast.md, "Reference-free score").
 */
export interface PriorWeights {
  coh: number;
  temp: number;
  focus: number;
  verify: number;
  brevity: number;
  edit: number;
  settle: number;
}

/** Tier thresholds on the 0-100 composite. */
export interface TierThresholds {
  /** Passing: f >= ideal is Ideal. */
  ideal: number;
  /** Passing: solid <= f < ideal is Solid, below is Lucky. */
  solid: number;
  /** Failing: f >= partial is Partial-fail, below is Off-track. */
  partial: number;
}

/** Lucky taxonomy thresholds (method.md section 7). */
export interface LuckyThresholds {
  /** C1: at most this many states and no V state. */
  c1MaxStates: number;
  /** C2: wasted steps >= this share of the states... */
  c2MinWasteShare: number;
  /** ...or coherence below this. */
  c2MaxCoh: number;
  /** C4: length >= this factor × the reference median length... */
  c4LengthFactor: number;
  /** ...and E share >= this. */
  c4MinExploreShare: number;
  /** C3: coverage below this (0-100). */
  c3MaxCov: number;
  /** C5: structure below this (0-100)... */
  c5MaxStruct: number;
  /** ...and coherence at least this. */
  c5MinCoh: number;
}

/** Waste report settings (method.md section 7). */
export interface WasteSettings {
  /** A regression loop needs at least this many failed edit→verify cycles (2 or more: the cycles after the first are its waste). */
  regressionMinCycles: number;
  /** Cyclic pattern: smallest and largest repeating block (in states). */
  cycleMinBlock: number;
  cycleMaxBlock: number;
  /** Cyclic pattern: the block must occur at least this many times in a row. */
  cycleMinRepeats: number;
}

export interface ScoringConfig {
  weights: Weights;
  /** Weights of the reference-free composite (used instead of `weights` when a task has no PTA). */
  priorWeights: PriorWeights;
  /** L of Φbrevity = L / (L + steps): the length at which it is 0.5. */
  brevitySteps: number;
  tiers: TierThresholds;
  /** Equivalence threshold (section 3). */
  tau: number;
  /** Coherence denominator guard (section 5.3). */
  epsilon: number;
  /** Laplace smoothing of window distributions (section 5.4). */
  alpha: number;
  lucky: LuckyThresholds;
  waste: WasteSettings;
  /** Token estimate when a log has no token counts: characters / this. */
  charsPerToken: number;
}

/** Freezes an object and every object inside it. */
export function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null && !Object.isFrozen(o)) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

export const DEFAULT_CONFIG: ScoringConfig = deepFreeze({
  weights: { struct: 0.2, cov: 0.15, coh: 0.3, temp: 0.35 },
  // Chosen by `steplens train` on ../shared/calibration + ../shared/corpus (docs/forecast.md, "Reference-free score").
  priorWeights: { coh: 0, temp: 0.1, focus: 0, verify: 0, brevity: 0.5, edit: 0.4, settle: 0 },
  brevitySteps: 15,
  tiers: { ideal: 70, solid: 47, partial: 47 },
  tau: 0.7,
  epsilon: 1e-6,
  alpha: 0.01,
  lucky: {
    c1MaxStates: 8,
    c2MinWasteShare: 0.3,
    c2MaxCoh: 0.4,
    c4LengthFactor: 2,
    c4MinExploreShare: 0.6,
    c3MaxCov: 30,
    c5MaxStruct: 30,
    c5MinCoh: 0.6,
  },
  waste: { regressionMinCycles: 2, cycleMinBlock: 2, cycleMaxBlock: 4, cycleMinRepeats: 3 },
  charsPerToken: 4,
});

/**
 * Zod schema of a partial scoring-config override, built on first use (`z.lazy`): a command that never reads a
 * config file does not pay for building it at start (issue 24).
 */
const configInputSchema = z.lazy(() => {
  const nonNeg = z.number().finite().nonnegative();
  const share = z.number().finite().min(0).max(1);
  const score100 = z.number().finite().min(0).max(100);
  const posInt = z.number().int().positive();

  return z
    .object({
      weights: z.object({ struct: nonNeg, cov: nonNeg, coh: nonNeg, temp: nonNeg }).partial().strict(),
      priorWeights: z.object({ coh: nonNeg, temp: nonNeg, focus: nonNeg, verify: nonNeg, brevity: nonNeg, edit: nonNeg, settle: nonNeg }).partial().strict(),
      brevitySteps: z.number().finite().positive(),
      tiers: z.object({ ideal: score100, solid: score100, partial: score100 }).partial().strict(),
      tau: z.number().finite().gt(0).max(1),
      epsilon: z.number().finite().positive(),
      alpha: z.number().finite().positive(),
      lucky: z
        .object({
          c1MaxStates: z.number().int().nonnegative(),
          c2MinWasteShare: share,
          c2MaxCoh: share,
          c4LengthFactor: z.number().finite().positive(),
          c4MinExploreShare: share,
          c3MaxCov: score100,
          c5MaxStruct: score100,
          c5MinCoh: share,
        })
        .partial()
        .strict(),
      waste: z
        .object({ regressionMinCycles: z.number().int().min(2), cycleMinBlock: z.number().int().min(2), cycleMaxBlock: posInt, cycleMinRepeats: z.number().int().min(2) })
        .partial()
        .strict(),
      charsPerToken: z.number().finite().positive(),
    })
    .partial()
    .strict();
});

/** Zod schema of a partial scoring-config override (for the protocol/CLI layers). */
export { configInputSchema };

/** Most issues {@link formatIssues} lists; the rest are counted. */
const SHOWN_ISSUES = 3;

/** The most characters of one issue's message shown: zod names every unrecognized key, each as long as sent (T54). */
const ISSUE_CHARS = 512;

/**
 * `text` cut to `max` characters, saying how long it was: an error names what was wrong with the client's input,
 * without sending the input back whole (a frame's 900 KB key or type came back in its error frame, T54).
 */
export function clipped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}... (${text.length} characters)`;
}

/**
 * The one formatter of zod errors (config, policy, frames, bodies, step records): one line naming
 * each offending field from `prefix`, `prefix.a.b[2].c: message; ...`, the first few issues of
 * many and how many more; `(root)` for a value with neither path nor prefix.
 */
export function formatIssues(error: z.ZodError, prefix = ''): string {
  const shown = error.issues.slice(0, SHOWN_ISSUES).map((issue) => {
    const path = issue.path.reduce<string>((acc, key) => (typeof key === 'number' ? `${acc}[${key}]` : acc ? `${acc}.${clipped(String(key), 64)}` : clipped(String(key), 64)), prefix);
    return `${path || '(root)'}: ${clipped(issue.message, ISSUE_CHARS)}`;
  });
  const more = error.issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')} (and ${more} more)` : shown.join('; ');
}

/**
 * Validates a partial deep override of `DEFAULT_CONFIG` (undefined/null = defaults).
 * Errors name the offending field: weights must be non-negative with a positive
 * sum (and coh + temp > 0, so reference-free scoring is defined), tiers ordered
 * (solid <= ideal), cycle block sizes ordered.
 */
export function resolveConfig(input: unknown, base: ScoringConfig = DEFAULT_CONFIG): Result<ScoringConfig, string> {
  if (input === undefined || input === null) return ok(base);
  const parsed = configInputSchema.safeParse(input);
  if (!parsed.success) return err(`invalid scoring config: ${formatIssues(parsed.error)}`);
  const o = parsed.data;
  const cfg: ScoringConfig = {
    weights: { ...base.weights, ...o.weights },
    priorWeights: { ...base.priorWeights, ...o.priorWeights },
    brevitySteps: o.brevitySteps ?? base.brevitySteps,
    tiers: { ...base.tiers, ...o.tiers },
    tau: o.tau ?? base.tau,
    epsilon: o.epsilon ?? base.epsilon,
    alpha: o.alpha ?? base.alpha,
    lucky: { ...base.lucky, ...o.lucky },
    waste: { ...base.waste, ...o.waste },
    charsPerToken: o.charsPerToken ?? base.charsPerToken,
  };
  const w = cfg.weights;
  if (w.struct + w.cov + w.coh + w.temp <= 0) return err('invalid scoring config: weights must sum to more than 0');
  if (w.coh + w.temp <= 0) return err('invalid scoring config: weights.coh + weights.temp must be more than 0 (the weight fit scores reference-free runs with them)');
  const pw = cfg.priorWeights;
  if (pw.coh + pw.temp + pw.focus + pw.verify + pw.brevity + pw.edit + pw.settle <= 0) return err('invalid scoring config: priorWeights must sum to more than 0 (they weigh the reference-free score)');
  if (cfg.tiers.solid > cfg.tiers.ideal) return err(`invalid scoring config: tiers.solid (${cfg.tiers.solid}) must not exceed tiers.ideal (${cfg.tiers.ideal})`);
  if (cfg.waste.cycleMinBlock > cfg.waste.cycleMaxBlock) {
    return err(`invalid scoring config: waste.cycleMinBlock (${cfg.waste.cycleMinBlock}) must not exceed waste.cycleMaxBlock (${cfg.waste.cycleMaxBlock})`);
  }
  return ok(cfg);
}
