/** Zod schemas of the scorer's outputs as they travel on the wire (scores, signals, waste, reports). */
import { z } from 'zod';

export const stageSchema = z.enum(['E', 'I', 'V', 'O']);
export const tierSchema = z.enum(['Ideal', 'Solid', 'Lucky', 'Partial-fail', 'Off-track']);
export const passTierSchema = z.enum(['Ideal', 'Solid', 'Lucky']);
export const luckySchema = z.enum(['C1', 'C2', 'C3', 'C4', 'C5', 'unclassified']);
export const signalKindSchema = z.enum(['blind_retry', 'regression_loop', 'cycle', 'exploration_streak', 'low_score', 'low_forecast', 'budget']);
export const severitySchema = z.enum(['warn', 'stop']);

export const scoreVectorSchema = z.object({
  total: z.number(),
  struct: z.number().nullable(),
  cov: z.number().nullable(),
  coh: z.number(),
  temp: z.number(),
});

export const referenceInfoSchema = z.object({
  kind: z.enum(['pta', 'prior']),
  version: z.number().int().optional(),
  paths: z.number().int().optional(),
});

export const signalSchema = z.object({
  kind: signalKindSchema,
  severity: severitySchema,
  t: z.number().int(),
  steps: z.array(z.number().int()),
  message: z.string(),
});

export const wasteItemSchema = z.object({
  category: z.enum(['regression_loop', 'blind_retry', 'redundant_step', 'irrelevant_exploration', 'cyclic_pattern']),
  steps: z.array(z.number().int()),
  tool: z.string(),
  wastedSteps: z.number(),
  wastedTokens: z.number(),
});

/** The whole-trajectory report: `final` (plus `type`, `session`) and the body of `POST /v1/score`. */
export const trajectoryReportSchema = z.object({
  score: scoreVectorSchema,
  tier: tierSchema,
  lucky: luckySchema.optional(),
  waste: z.array(wasteItemSchema),
  signals: z.array(signalSchema),
  steps: z.number().int(),
  stages: z.string(),
  reference: referenceInfoSchema,
  unknown: z.number().int(),
  /** P(pass | the whole trajectory) from the server's forecast model (`serve --forecast`); absent without one. */
  pPass: z.number().min(0).max(1).optional(),
  /** Version of the forecast model that produced `pPass` (it stays the session's model for its whole life). */
  forecastVersion: z.number().int().optional(),
});
