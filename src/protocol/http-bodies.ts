/** Zod schemas of the HTTP request and response bodies of protocol v1. */
import { z } from 'zod';
import { policyInputSchema } from '../core/policy.js';
import { FORMAT_NAMES } from '../formats/types.js';
import { formatSchema, taskIdSchema } from './client-messages.js';

const formatOrAutoSchema = z.union([formatSchema, z.literal('auto')], {
  error: () => `expected one of auto, ${FORMAT_NAMES.join(', ')}`,
});
import { referenceInfoSchema, scoreVectorSchema, signalSchema, tierSchema } from './report-schemas.js';

const trajectorySchema = z.unknown().refine((v) => v !== undefined && v !== null, 'required: the log content (JSON document or array of records)');

/** `POST /v1/score`. */
export const scoreRequestSchema = z.object({
  task: taskIdSchema,
  format: formatOrAutoSchema.optional(),
  trajectory: trajectorySchema,
  passed: z.boolean().optional(),
  policy: policyInputSchema.optional(),
});

/** `POST /v1/tasks/:task/references`. */
export const addReferenceRequestSchema = z.object({
  format: formatOrAutoSchema.optional(),
  trajectory: trajectorySchema,
});

/** Answer of `POST /v1/tasks/:task/references`. */
export const addReferenceResponseSchema = z.object({
  task: z.string(),
  version: z.number().int(),
  references: z.number().int(),
  steps: z.number().int(),
});

/** One task of `GET /v1/tasks`. */
export const taskStatsSchema = z.object({
  task: z.string(),
  version: z.number().int(),
  references: z.number().int(),
  nodes: z.number().int(),
  paths: z.number().int(),
});

export const taskListResponseSchema = z.object({ tasks: z.array(taskStatsSchema) });

/** Answer of `GET /v1/sessions/:id`: the live score of a session. */
export const sessionStatusSchema = z.object({
  session: z.string(),
  task: z.string(),
  format: z.string(),
  agent: z.string().optional(),
  model: z.string().optional(),
  state: z.enum(['open', 'detached', 'ended']),
  /** Steps scored so far. */
  steps: z.number().int(),
  /** Last seq accepted (-1: none). */
  lastSeq: z.number().int(),
  score: scoreVectorSchema,
  tier: tierSchema,
  stages: z.object({ E: z.number().int(), I: z.number().int(), V: z.number().int(), O: z.number().int() }),
  signals: z.array(signalSchema),
  reference: referenceInfoSchema,
  passed: z.boolean().optional(),
  /** P(pass | the steps so far) from the server's forecast model (`serve --forecast`); absent without one. */
  pPass: z.number().min(0).max(1).optional(),
  /** Version of the forecast model the session uses (taken at its start). */
  forecastVersion: z.number().int().optional(),
});

/** Most items one batch call may carry. */
export const MAX_BATCH_ITEMS = 1024;

/** `POST /v1/score/batch`: many trajectories (a GRPO group, a corpus slice) scored in one call. */
export const scoreBatchRequestSchema = z.object({
  items: z.array(scoreRequestSchema).min(1, 'at least one item').max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} items`),
});

/**
 * `POST /get_reward`: OpenRLHF's remote reward model request. `query[i]` is the prompt followed by
 * the rollout; what follows `prompts[i]` (when query[i] starts with it) must be a trajectory log
 * steplens reads (a JSON document or JSON Lines, any supported format). `labels[i]` is the task id
 * (`--label_key` of the dataset), or a JSON object text `{"task": ..., "passed": ...}`.
 */
export const getRewardRequestSchema = z.object({
  query: z.array(z.string()).min(1, 'at least one query').max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} queries`),
  prompts: z.array(z.string()).optional(),
  labels: z.array(z.string().nullable()).optional(),
});

/** Answer of `POST /get_reward`: one number per query in every array. */
export const getRewardResponseSchema = z.object({
  /** Composite / 100, in [0, 1]. */
  rewards: z.array(z.number()),
  /** The same values (OpenRLHF uses `scores` for dynamic filtering, which expects 0-1). */
  scores: z.array(z.number()),
  /** Per-query numbers for the trainer's logger; struct and cov are -1 when the task has no reference. */
  extra_logs: z.record(z.string(), z.array(z.number())),
});

/** Every error answer of the HTTP API. */
export const httpErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export type ScoreRequest = z.infer<typeof scoreRequestSchema>;
export type AddReferenceRequest = z.infer<typeof addReferenceRequestSchema>;
export type AddReferenceResponse = z.infer<typeof addReferenceResponseSchema>;
export type ScoreBatchRequest = z.infer<typeof scoreBatchRequestSchema>;
export type GetRewardRequest = z.infer<typeof getRewardRequestSchema>;
export type GetRewardResponse = z.infer<typeof getRewardResponseSchema>;
export type TaskStats = z.infer<typeof taskStatsSchema>;
export type SessionStatus = z.infer<typeof sessionStatusSchema>;
