/** Zod schemas of the HTTP request and response bodies of protocol v1. */
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { policyInputSchema } from '../core/policy.js';
import { FORMAT_NAMES } from '../formats/types.js';
import { formatSchema, taskIdSchema } from './client-messages.js';

export const formatOrAutoSchema = z
  .union([formatSchema, z.literal('auto')], {
    error: () => `expected one of auto, ${FORMAT_NAMES.join(', ')}`,
  })
  .describe('Log format of trajectory, or auto (default): detected from the content');
import { ptaScopeSchema, referenceInfoSchema, scoreVectorSchema, signalSchema, tierSchema } from './report-schemas.js';

export const trajectorySchema = z
  .unknown()
  .refine((v) => v !== undefined && v !== null, 'required: the log content (JSON document, array of records, or the log file text as a string)')
  .describe(
    "The whole log: the parsed JSON document of a log file (e.g. a SWE-agent .traj object), an array of records for a JSON Lines log (one steplens step or OpenHands event per element), or the log file's text as one string (a JSON document or JSON Lines, read as steplens score reads a file)",
  );
const int = (what: string) => z.number().int().describe(what);

/** `POST /v1/score`. */
export const scoreRequestSchema = z.object({
  task: taskIdSchema,
  format: formatOrAutoSchema.optional(),
  trajectory: trajectorySchema,
  passed: z.boolean().optional().describe('The test outcome, if known: sets the tier (Partial-fail / Off-track for false) and the Lucky category'),
  policy: policyInputSchema.optional().describe("Early-stop policy to score with: overrides the server's policy field by field"),
  agent: z.string().min(1).max(256).optional().describe("The run's agent: picks its source's forecast model and recalibration (serve --forecast); default: the agent the log names"),
  model: z.string().min(1).max(256).optional().describe("The run's model: picks its source's forecast model and recalibration (serve --forecast); default: the model the log names"),
});

/** `POST /v1/tasks/:task/references`. */
export const addReferenceRequestSchema = z.object({
  format: formatOrAutoSchema.optional(),
  trajectory: trajectorySchema,
});

/** Answer of `POST /v1/tasks/:task/references`. */
export const addReferenceResponseSchema = z.object({
  task: z.string().describe('The task id'),
  version: int("The task's PTA version after the merge"),
  references: int('Reference trajectories the PTA now holds'),
  steps: int('Steps of the added trajectory'),
  scope: ptaScopeSchema.optional(),
});

/** The query of `DELETE /v1/tasks/:task/pta`: which PTA to remove (the caller's own by default). */
export const removePtaQuerySchema = z.object({
  scope: z.enum(['shared', 'tenant'], { error: () => "expected tenant (the default: a tenant's own PTA) or shared" }).optional(),
  tenant: z.string({ error: () => 'expected one tenant name' }).optional(),
});

/** Answer of `DELETE /v1/tasks/:task/pta`. */
export const removePtaResponseSchema = z.object({
  task: z.string().describe('The task id'),
  scope: z.enum(['shared', 'tenant']).describe("Whose PTA was removed: shared (the task's PTA every tenant falls back to) or tenant (a tenant's own)"),
  version: int('The version the PTA had when it was removed (the next PTA of the task is numbered past it)'),
});

/** One task of `GET /v1/tasks`. */
export const taskStatsSchema = z.object({
  task: z.string().describe('The task id'),
  version: int('PTA version: 1 after a build, +1 per added reference'),
  references: int('Reference trajectories merged into the PTA'),
  nodes: int('PTA nodes (states), the root excluded'),
  paths: int('Root-to-terminal paths'),
  scope: ptaScopeSchema.optional(),
  tenant: z.string().optional().describe("The tenant whose own PTA this is (scope tenant, in an operator's listing of every tenant)"),
});

export const taskListResponseSchema = z.object({ tasks: z.array(taskStatsSchema).describe('Every task with a stored reference') });

/** Answer of `GET /v1/sessions/:id`: the live score of a session. */
export const sessionStatusSchema = z.object({
  session: z.string().describe('The session id'),
  tenant: z.string().optional().describe("The tenant whose namespace the session id is in (the token's; an operator reads others' with ?tenant=)"),
  task: z.string().describe('The task id of the session'),
  format: z.string().describe('The log format of its step payloads'),
  agent: z.string().optional().describe('start.agent, if the client named it'),
  model: z.string().optional().describe('start.model, if the client named it'),
  policy: z
    .object({
      selected: z.string().describe('Which early-stop policy the session runs under: its agent/model group or the fallback, promoted, pinned, or shadow (warn only)'),
      shadow: z.boolean().describe('True when its stops are demoted to warns so its outcome can calibrate its agent + model pair (shadow mode)'),
    })
    .optional()
    .describe('The early-stop policy the server chose for the session (per-agent/model policies, shadow mode)'),
  state: z.enum(['open', 'detached', 'ended']).describe('open: on a connection; detached: its connection dropped, resumable; ended: final sent'),
  /** Steps scored so far. */
  steps: int('Steps scored so far'),
  /** Last seq accepted (-1: none). */
  lastSeq: int('Last seq accepted (-1: none)'),
  score: scoreVectorSchema,
  tier: tierSchema,
  stages: z.object({ E: int('Exploration steps'), I: int('Implementation steps'), V: int('Verification steps'), O: int('Orchestration steps') }).describe('Steps per stage so far'),
  signals: z.array(signalSchema).describe('Every signal that fired so far'),
  reference: referenceInfoSchema,
  passed: z.boolean().optional().describe('The outcome the client reported, if any'),
  pPass: z.number().min(0).max(1).optional().describe("P(pass | the steps so far) from the server's forecast model (serve --forecast); absent without one"),
  forecastVersion: z.number().int().optional().describe('Version of the forecast model the session uses (taken at its start)'),
});

/** Most items one batch call may carry. */
export const MAX_BATCH_ITEMS = 1024;

/** `POST /v1/score/batch`: many trajectories (a GRPO group, a corpus slice) scored in one call. */
export const scoreBatchRequestSchema = z.object({
  items: z.array(scoreRequestSchema).min(1, 'at least one item').max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} items`).describe(`1 to ${MAX_BATCH_ITEMS} score requests, each scored on its own`),
});

/**
 * `POST /get_reward`: OpenRLHF's remote reward model request. `query[i]` is the prompt followed by
 * the rollout; what follows `prompts[i]` (when query[i] starts with it) must be a trajectory log
 * steplens reads (a JSON document or JSON Lines, any supported format). `labels[i]` is the task id
 * (`--label_key` of the dataset), or a JSON object text `{"task": ..., "passed": ...}`.
 */
export const getRewardRequestSchema = z.object({
  query: z
    .array(z.string())
    .min(1, 'at least one query')
    .max(MAX_BATCH_ITEMS, `at most ${MAX_BATCH_ITEMS} queries`)
    .describe('Prompt + rollout per sample; the rollout (after prompts[i]) must be a trajectory log steplens reads'),
  prompts: z.array(z.string()).optional().describe('The prompt of each query, stripped from its start'),
  labels: z.array(z.string().nullable()).optional().describe('Task id of each query, or a JSON object text {"task": ..., "passed": ...}'),
});

/** Answer of `POST /get_reward`: one number per query in every array. */
export const getRewardResponseSchema = z.object({
  /** Composite / 100, in [0, 1]. */
  rewards: z.array(z.number()).describe('Composite score / 100 per query, in [0, 1]'),
  /** The same values (OpenRLHF uses `scores` for dynamic filtering, which expects 0-1). */
  scores: z.array(z.number()).describe('The same values as rewards (OpenRLHF filters on scores, 0-1)'),
  /** Per-query numbers for the trainer's logger; struct and cov are -1 when the task has no reference. */
  extra_logs: z
    .record(z.string(), z.array(z.number()))
    .describe(
      "Per-query numbers for the trainer's logger: score (0-100), struct, cov (-1 without a reference), coh, temp, steps, stopped (1 when a stop signal fired), reference (1 when scored against a PTA)",
    ),
});

/** `POST /v1/tickets`: a short-lived ticket for a route that cannot be sent a header (EventSource, the browser's WebSocket). */
export const ticketRequestSchema = z
  .object({
    route: z.enum(['/v1/live', '/v1/stream']).describe('The one route the ticket opens'),
    session: z.string().min(1).max(128).optional().describe("/v1/live only: the ticket opens this session's feed (?session=) and no other"),
    tenant: z.string().max(64).optional().describe("/v1/live with session, operators only: the session's tenant (?tenant=)"),
  })
  .strict();

export const ticketResponseSchema = z.object({
  ticket: z.string().describe('Pass it as ?ticket= on the route; good once, until expiresAt'),
  expiresAt: z.number().describe('When it stops being good (epoch milliseconds)'),
});

/** Every error answer of the HTTP API: `code` is one of the catalogue's (src/errors.ts). */
export const httpErrorSchema = z.object({
  error: z
    .object({
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]).describe('Stable error code (src/errors.ts; proto/README.md)'),
      message: z.string().describe('One line naming what is wrong'),
    })
    .describe("What went wrong; the HTTP status is the code's"),
});

export type ScoreRequest = z.infer<typeof scoreRequestSchema>;
export type AddReferenceRequest = z.infer<typeof addReferenceRequestSchema>;
export type AddReferenceResponse = z.infer<typeof addReferenceResponseSchema>;
export type RemovePtaResponse = z.infer<typeof removePtaResponseSchema>;
export type ScoreBatchRequest = z.infer<typeof scoreBatchRequestSchema>;
export type GetRewardRequest = z.infer<typeof getRewardRequestSchema>;
export type GetRewardResponse = z.infer<typeof getRewardResponseSchema>;
export type TaskStats = z.infer<typeof taskStatsSchema>;
export type SessionStatus = z.infer<typeof sessionStatusSchema>;
export type TicketRequest = z.infer<typeof ticketRequestSchema>;
