/**
 * The forecast model file (`steplens train --out forecast.json`, `serve
 * --forecast`): versioned JSON holding logistic models of P(pass | first t
 * steps). Each model has a linear score z over a subset of the features
 * (by name), its intercept, and a recalibration pPass = σ(a + b·z) fitted on
 * held-out outcomes of its source; a model matched to an agent and model
 * carries that source's intercept (and, when it had the runs, its own
 * weights pulled toward the pooled ones), the default model (empty match)
 * serves any other source. `parseForecast` is the only way such a file
 * becomes typed.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../errors.js';
import { formatIssues } from '../config.js';
import type { EcdfTable } from './end-ecdf.js';
import { FEATURE_NAMES } from './features.js';

export const FORECAST_FORMAT = 'steplens-forecast';
export const FORECAST_SCHEMA = 2;

/** One fitted model. */
export interface ForecastModel {
  /** Applies to sessions of this agent and/or model; empty = any (the default). */
  match: { agent?: string; model?: string };
  /** Feature names (of FEATURE_NAMES), in the order of mean, scale and weights. */
  features: string[];
  mean: number[];
  scale: number[];
  weights: number[];
  /** z = intercept + Σ weights_j · (x_j − mean_j) / scale_j. */
  intercept: number;
  /** pPass = σ(a + b·z): recalibration on held-out outcomes (identity: a 0, b 1). */
  calibration: { a: number; b: number };
  /** What it was fitted on (its source's runs for a matched model, every run for the default). */
  trainedOn: { runs: number; passing: number; tasks: number };
  /**
   * Set by `serve --forecast-learn` on a source's model recalibrated from its reported outcomes
   * (core/forecast/recalibrate.ts): the calibration before any of them (the prior it is pulled toward, so
   * recalibrating again on more outcomes never counts the earlier ones twice), how many outcomes it read, and
   * how many runs that prior counts as (`priorRuns`: the runs `train` fitted the source's own map on, if any).
   */
  recalibrated?: { from: { a: number; b: number }; outcomes: number; passing: number; priorRuns?: number };
  /**
   * Set by `serve --forecast-learn` on a source's own model it fitted (core/forecast/retrain.ts `ownModel`: weights
   * pulled toward the default model's by this penalty, on the `trainedOn` sessions), so the next check refits it out
   * of fold by the same procedure instead of scoring its weights on the sessions they were fitted on. Absent from
   * own models learned before stop 71 (their weights are then kept in that check).
   */
  learnedOwn?: { lambda: number; kappa: number };
}

/**
 * The end-of-run model (core/forecast/end-model.ts): for finished runs only, each feature mapped to its ECDF among the
 * runs `train` read (`tables`, per feature its distinct end-row values ascending and how many runs had each) before
 * its logistic `models` (chosen per agent + model as the prefix models are) score it.
 */
export interface EndModel {
  tables: Record<string, EcdfTable>;
  models: ForecastModel[];
}

/** The file. `version` counts models put in force (1 after `train`, +1 per swap by `--forecast-learn`). */
export interface ForecastFile {
  format: typeof FORECAST_FORMAT;
  schema: typeof FORECAST_SCHEMA;
  version: number;
  createdAt: string;
  models: ForecastModel[];
  /** How `train` fitted it (the learner refits a source's model the same way). */
  config?: { lambda: number; endWeight: number; groupSd: number; kappa: number | null };
  /**
   * The runs `train` fitted it on, by fingerprint (fingerprint.ts: `fingerprint` names how they were taken, `runs`
   * the fingerprints, sorted, each once), so `report` can tell which runs' pPass is in-sample. The learner keeps
   * the file's list: the sessions it learns from are not in it. Absent from files written before `train` listed them.
   */
  trainedRuns?: { fingerprint: string; runs: string[] };
  /** The evaluation printed by `train` (free-form; not read back). */
  evaluation?: unknown;
  /**
   * Set on the versions `serve --forecast-learn` writes: the `--forecast` file they were learned from (`digest`:
   * fingerprint.ts `forecastDigest`; its version and createdAt for people), so a restart puts back only versions
   * learned from the file it loaded; in a tenant's version, the tenant and how many of the models (the first) are
   * its own (the rest are the shared models of the time); `scope`, the learning scope it was learned in (a shared
   * version learned in the `shared` scope holds every tenant's outcomes: not restored in the `tenant` scope).
   */
  learnedFrom?: { digest: string; version: number; createdAt: string; tenant?: string; ownModels?: number; scope?: 'tenant' | 'shared' };
  /** The end-of-run model `train` fits beside the prefix models (absent from files written before stop 74: they rank as before). */
  end?: EndModel;
}

/** The model file's schema, built on first use (`z.lazy`): scoring without a forecast model does not build it (issue 24). */
const fileSchema = z.lazy(() => {
  const finite = z.number().finite();
  const modelSchema = z
    .object({
      match: z.object({ agent: z.string().min(1).optional(), model: z.string().min(1).optional() }).strict(),
      features: z.array(z.string()).min(1),
      mean: z.array(finite),
      scale: z.array(finite.positive()),
      weights: z.array(finite),
      intercept: finite,
      calibration: z.object({ a: finite, b: finite }).strict(),
      trainedOn: z.object({ runs: z.number().int().nonnegative(), passing: z.number().int().nonnegative(), tasks: z.number().int().nonnegative() }).strict(),
      recalibrated: z
        .object({
          from: z.object({ a: finite, b: finite }).strict(),
          outcomes: z.number().int().nonnegative(),
          passing: z.number().int().nonnegative(),
          priorRuns: z.number().int().nonnegative().optional(),
        })
        .strict()
        .optional(),
      learnedOwn: z.object({ lambda: finite.positive(), kappa: finite.positive() }).strict().optional(),
    })
    .strict();

  return z
    .object({
      format: z.literal(FORECAST_FORMAT),
      schema: z.literal(FORECAST_SCHEMA),
      version: z.number().int().positive(),
      createdAt: z.string(),
      models: z.array(modelSchema).min(1),
      config: z
        .object({ lambda: finite.positive(), endWeight: finite.min(0).max(1), groupSd: finite.positive(), kappa: finite.positive().nullable(), pairWeight: finite.positive().optional() })
        .strict()
        .optional(),
      trainedRuns: z
        .object({ fingerprint: z.string().min(1), runs: z.array(z.string().regex(/^[0-9a-f]{8,64}$/, 'a fingerprint is hex digits')) })
        .strict()
        .optional(),
      evaluation: z.unknown().optional(),
      learnedFrom: z
        .object({
          digest: z.string().regex(/^[0-9a-f]{64}$/, 'a digest is 64 hex digits'),
          version: z.number().int().positive(),
          createdAt: z.string(),
          tenant: z.string().min(1).optional(),
          ownModels: z.number().int().nonnegative().optional(),
          scope: z.enum(['tenant', 'shared']).optional(),
        })
        .strict()
        .optional(),
      end: z
        .object({
          tables: z.record(z.string(), z.object({ values: z.array(finite), counts: z.array(z.number().int().positive()) }).strict()),
          models: z.array(modelSchema).min(1),
        })
        .strict()
        .optional(),
    })
    .strict();
});

const KNOWN = new Set<string>(FEATURE_NAMES);

/** Validates a parsed forecast file; errors name the field (and a file from another steplens version). */
export function parseForecast(input: unknown): Result<ForecastFile, string> {
  const schema = typeof input === 'object' && input !== null ? (input as { schema?: unknown }).schema : undefined;
  if (schema !== undefined && schema !== FORECAST_SCHEMA && typeof schema === 'number') {
    return err(`invalid forecast model: schema ${schema} is from another steplens version (this one reads schema ${FORECAST_SCHEMA}); retrain with steplens train`);
  }
  const parsed = fileSchema.safeParse(input);
  if (!parsed.success) return err(`invalid forecast model: ${formatIssues(parsed.error)}`);
  const file = parsed.data;
  const why = checkModels(file.models, 'models');
  if (why !== null) return err(why);
  if (file.end !== undefined) {
    const end = checkEnd(file.end);
    if (end !== null) return err(end);
  }
  return ok(file);
}

/** The end model's tables (known features, values strictly ascending, one count each) and models, as `models` are checked. */
function checkEnd(end: EndModel): string | null {
  for (const [f, t] of Object.entries(end.tables)) {
    if (!KNOWN.has(f)) return `invalid forecast model: end.tables.${f} is not a feature of this steplens version; retrain with steplens train`;
    if (t.counts.length !== t.values.length) return `invalid forecast model: end.tables.${f} needs one count per value`;
    if (t.values.some((v, k) => k > 0 && !(v > t.values[k - 1]!))) return `invalid forecast model: end.tables.${f}.values must be strictly ascending`;
  }
  const models = checkModels(end.models, 'end.models');
  if (models !== null) return models;
  const missing = [...new Set(end.models.flatMap((m) => m.features))].filter((f) => end.tables[f] === undefined);
  return missing.length > 0 ? `invalid forecast model: end.models read ${missing.join(', ')} without a table in end.tables` : null;
}

function checkModels(models: readonly ForecastModel[], at: string): string | null {
  for (const [i, m] of models.entries()) {
    const unknown = m.features.filter((f) => !KNOWN.has(f));
    if (unknown.length > 0 || new Set(m.features).size !== m.features.length) {
      return `invalid forecast model: ${at}.${i}.features [${m.features.join(', ')}] are not features of this steplens version${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ' (repeated)'}; retrain with steplens train`;
    }
    const d = m.features.length;
    if (m.mean.length !== d || m.scale.length !== d || m.weights.length !== d) return `invalid forecast model: ${at}.${i} needs ${d} means, scales and weights`;
    const why = overflow(m);
    if (why !== null) return `invalid forecast model: ${at}.${i}: ${why}, so pPass would not be a number; retrain with steplens train`;
  }
  return null;
}

/**
 * Far above any feature's magnitude (flags, shares, ln(1 + a count): |x| < 50 for any count a double holds), so a
 * linear score that stays finite for every |x| up to it stays finite for every real run.
 */
const FEATURE_BOUND = 1e3;

/**
 * Why a model's linear score can overflow (finite JSON numbers such as weights of 1e308 still give ±Infinity, and
 * Infinity − Infinity or Infinity · 0 gives a NaN pPass), or null. Checked as the forecaster folds it: weight /
 * scale per feature, the intercept minus each such coefficient times its mean, and the score's largest magnitude.
 */
function overflow(m: Pick<ForecastModel, 'weights' | 'scale' | 'mean' | 'intercept'>): string | null {
  let bias = m.intercept;
  let spread = 0;
  for (let j = 0; j < m.weights.length; j++) {
    const c = m.weights[j]! / m.scale[j]!;
    if (!Number.isFinite(c)) return `weights.${j} / scale.${j} (${m.weights[j]} / ${m.scale[j]}) overflows`;
    bias -= c * m.mean[j]!;
    spread += Math.abs(c) * FEATURE_BOUND;
  }
  if (!Number.isFinite(Math.abs(bias) + spread)) return `its weights (up to ${Math.max(...m.weights.map(Math.abs))} in magnitude) make the linear score overflow`;
  return null;
}

/**
 * The model for a session: the one matching both agent and model, else the
 * agent, else the model, else the default (empty match); undefined if none applies.
 */
export function selectModel(file: Pick<ForecastFile, 'models'>, agent: string | undefined, model: string | undefined): ForecastModel | undefined {
  const score = (m: ForecastModel): number => {
    if (m.match.agent !== undefined && m.match.agent !== agent) return -1;
    if (m.match.model !== undefined && m.match.model !== model) return -1;
    return (m.match.agent !== undefined ? 2 : 0) + (m.match.model !== undefined ? 1 : 0);
  };
  let best: ForecastModel | undefined;
  let bestScore = -1;
  for (const m of file.models) {
    const s = score(m);
    if (s > bestScore) {
      best = m;
      bestScore = s;
    }
  }
  return best;
}
