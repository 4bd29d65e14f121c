/**
 * The forecast model file (`steplens train --out forecast.json`, `serve
 * --forecast`): versioned JSON holding one or more logistic models of
 * P(pass | first t steps), each optionally matched to an agent and/or model,
 * with the prior windows its Φtemp feature compares against. `parseForecast`
 * is the only way such a file becomes typed.
 */
import { z } from 'zod';
import { err, ok, type Result } from '../../errors.js';
import { formatIssues } from '../config.js';
import type { Windows } from '../signals/temporal.js';
import { FEATURE_NAMES } from './features.js';

export const FORECAST_FORMAT = 'steplens-forecast';
export const FORECAST_SCHEMA = 1;

/** One fitted model. */
export interface ForecastModel {
  /** Applies to sessions of this agent and/or model; empty = any (the default). */
  match: { agent?: string; model?: string };
  features: string[];
  prior: { windows: Windows; alpha: number };
  mean: number[];
  scale: number[];
  weights: number[];
  intercept: number;
  /** What it was fitted on. */
  trainedOn: { runs: number; passing: number; tasks: number };
}

/** The file. `version` counts models put in force (1 after `train`, +1 per swap by `--forecast-learn`). */
export interface ForecastFile {
  format: typeof FORECAST_FORMAT;
  schema: typeof FORECAST_SCHEMA;
  version: number;
  createdAt: string;
  models: ForecastModel[];
  /** The evaluation printed by `train` (free-form; not read back). */
  evaluation?: unknown;
}

const finite = z.number().finite();
const dist = z.tuple([finite, finite, finite, finite]);
const modelSchema = z
  .object({
    match: z.object({ agent: z.string().min(1).optional(), model: z.string().min(1).optional() }).strict(),
    features: z.array(z.string()),
    prior: z.object({ windows: z.tuple([dist, dist, dist]), alpha: finite.positive() }).strict(),
    mean: z.array(finite),
    scale: z.array(finite.positive()),
    weights: z.array(finite),
    intercept: finite,
    trainedOn: z.object({ runs: z.number().int().nonnegative(), passing: z.number().int().nonnegative(), tasks: z.number().int().nonnegative() }).strict(),
  })
  .strict();

const fileSchema = z
  .object({
    format: z.literal(FORECAST_FORMAT),
    schema: z.literal(FORECAST_SCHEMA),
    version: z.number().int().positive(),
    createdAt: z.string(),
    models: z.array(modelSchema).min(1),
    evaluation: z.unknown().optional(),
  })
  .strict();

/** Validates a parsed forecast file; errors name the field (and a feature list from another steplens version). */
export function parseForecast(input: unknown): Result<ForecastFile, string> {
  const parsed = fileSchema.safeParse(input);
  if (!parsed.success) return err(`invalid forecast model: ${formatIssues(parsed.error)}`);
  const file = parsed.data;
  for (const [i, m] of file.models.entries()) {
    if (m.features.length !== FEATURE_NAMES.length || m.features.some((f, j) => f !== FEATURE_NAMES[j])) {
      return err(`invalid forecast model: models.${i}.features [${m.features.join(', ')}] are not this steplens version's [${FEATURE_NAMES.join(', ')}]; retrain with steplens train`);
    }
    const d = FEATURE_NAMES.length;
    if (m.mean.length !== d || m.scale.length !== d || m.weights.length !== d) {
      return err(`invalid forecast model: models.${i} needs ${d} means, scales and weights`);
    }
  }
  return ok(file);
}

/**
 * The model for a session: the one matching both agent and model, else the
 * agent, else the model, else the default (empty match); undefined if none applies.
 */
export function selectModel(file: ForecastFile, agent: string | undefined, model: string | undefined): ForecastModel | undefined {
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
