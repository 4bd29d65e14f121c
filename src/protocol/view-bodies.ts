/**
 * Zod schemas of what the web view reads (answers only; the server builds them,
 * the schemas document them in proto/): the session list, a session's steps,
 * the aligned path over a PTA, and the events of the live feed.
 */
import { z } from 'zod';
import {
  passTierSchema, referenceInfoSchema, scoreVectorSchema, severitySchema, signalKindSchema, signalSchema, stageSchema, tierSchema,
  trajectoryReportSchema,
} from './report-schemas.js';
import { finalMessageSchema, scoreMessageSchema, signalMessageSchema } from './server-messages.js';

const sessionStateSchema = z.enum(['open', 'detached', 'ended']);

/** One row of the live sessions list (`GET /v1/sessions`, the feed's `session` event). */
export const sessionSummarySchema = z.object({
  session: z.string(),
  task: z.string(),
  format: z.string(),
  agent: z.string().optional(),
  model: z.string().optional(),
  state: sessionStateSchema,
  steps: z.number().int(),
  /** The last score frame's total (0 before any step); the final total once ended. */
  total: z.number(),
  /** Projected tier while open; the real tier once ended with an outcome. */
  tier: tierSchema,
  /** Stage letters of the last steps (at most 40), oldest first. */
  recentStages: z.string(),
  lastSignal: z.object({ kind: signalKindSchema, severity: severitySchema, t: z.number().int(), message: z.string() }).optional(),
  reference: referenceInfoSchema,
  /** Epoch milliseconds. */
  startedAt: z.number(),
  endedAt: z.number().optional(),
  passed: z.boolean().optional(),
});

export const sessionListResponseSchema = z.object({ sessions: z.array(sessionSummarySchema) });

/** One scored step as the web view draws it. */
export const viewStepSchema = z.object({
  t: z.number().int(),
  /** The `seq` of the message that completed it (sessions only). */
  seq: z.number().int().optional(),
  stage: stageSchema,
  kind: z.string(),
  tool: z.string(),
  /** What the step did, one line (command, file, query), at most 100 characters. */
  text: z.string(),
  file: z.string().optional(),
  failed: z.boolean(),
  score: scoreVectorSchema,
  reward: z.number(),
  tier: passTierSchema,
});

/** `GET /v1/sessions/:id/steps` and `POST /v1/score/steps`: every step of a trajectory, its signals and its report. */
export const trajectoryViewSchema = z.object({
  session: z.string().optional(),
  task: z.string(),
  format: z.string(),
  agent: z.string().optional(),
  model: z.string().optional(),
  state: sessionStateSchema.optional(),
  steps: z.array(viewStepSchema),
  signals: z.array(signalSchema),
  /** The report so far (open session) or the final one. */
  report: trajectoryReportSchema,
  /** The session's `final` frame once it ended. */
  final: finalMessageSchema.optional(),
});

/** `GET /v1/sessions/:id/alignment`: the trajectory's path over its task's current PTA. */
export const alignmentSchema = z.object({
  task: z.string(),
  version: z.number().int(),
  steps: z.array(z.object({ t: z.number().int(), node: z.number().int().nullable() })),
  matchedNodes: z.array(z.number().int()),
  bestPath: z.object({ nodes: z.array(z.number().int()), hits: z.array(z.number().int()) }).nullable(),
});

/** `POST /v1/score/steps`: the trajectory view, and its path over the task's PTA when the task has one. */
export const scoreStepsResponseSchema = trajectoryViewSchema.extend({ alignment: alignmentSchema.optional() });

/** `GET /v1/calibration`: whether `serve --calibration DIR` is set, and the chosen policy of the calibration found there. */
export const calibrationResponseSchema = z.union([
  z.object({ configured: z.literal(false) }),
  z.object({
    configured: z.literal(true),
    /** When calibration.json was written (ISO time). */
    writtenAt: z.string(),
    /** The chosen early-stop policy (what `calibrate --out` writes and `serve --policy` loads). */
    policy: z.unknown(),
    /** The false-stop bound it was chosen under. */
    maxFalseStop: z.number().optional(),
    runs: z.object({ passing: z.number().optional(), failing: z.number().optional() }).optional(),
  }),
]);

/** `GET /web/info` (no token needed): whether the page must ask for a token. */
export const webInfoSchema = z.object({ auth: z.enum(['token', 'open']) });

/** What a session viewer of the live feed gets with each score frame: the step it scored. */
export const liveStepSchema = viewStepSchema.pick({ kind: true, tool: true, text: true, file: true, failed: true });

/**
 * One event of `GET /v1/live` (Server-Sent Events, one JSON object per `data:` line). Without
 * `?session=`: a `snapshot` of every session first; then `session` (a row changed: opened,
 * attached, detached, ended), the sessions' own `score`, `signal` and `final` frames as their
 * clients got them, and `gone` (freed). With `?session=ID`: a `view` of that session first, then
 * the same events for it alone, each `score` frame with the `step` it scored.
 */
export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('snapshot'), sessions: z.array(sessionSummarySchema) }),
  trajectoryViewSchema.extend({ type: z.literal('view') }),
  sessionSummarySchema.extend({ type: z.literal('session') }),
  scoreMessageSchema.extend({ step: liveStepSchema.optional() }),
  signalMessageSchema,
  finalMessageSchema,
  z.object({ type: z.literal('gone'), session: z.string() }),
]);

export type SessionSummary = z.infer<typeof sessionSummarySchema>;
export type ViewStep = z.infer<typeof viewStepSchema>;
export type TrajectoryView = z.infer<typeof trajectoryViewSchema>;
export type AlignmentBody = z.infer<typeof alignmentSchema>;
export type ScoreStepsResponse = z.infer<typeof scoreStepsResponseSchema>;
export type LiveEvent = z.infer<typeof liveEventSchema>;
export type LiveStep = z.infer<typeof liveStepSchema>;
export type CalibrationResponse = z.infer<typeof calibrationResponseSchema>;
