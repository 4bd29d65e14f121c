/**
 * Zod schemas of what the web view reads (answers only; the server builds them,
 * the schemas document them in proto/): the session list, a session's steps,
 * the aligned path over a PTA, and the events of the live feed.
 */
import { z } from 'zod';
import { referenceInfoSchema, scoreVectorSchema, severitySchema, signalKindSchema, signalSchema, stageSchema, tierSchema, trajectoryReportSchema } from './report-schemas.js';
import { finalMessageSchema, scoreMessageSchema, signalMessageSchema } from './server-messages.js';

const sessionStateSchema = z.enum(['open', 'detached', 'ended']).describe('open: on a connection; detached: its connection dropped, resumable; ended: final sent');

/** One row of the live sessions list (`GET /v1/sessions`, the feed's `session` event). */
export const sessionSummarySchema = z.object({
  session: z.string().describe('The session id'),
  tenant: z.string().optional().describe("The tenant whose namespace the session id is in (an operator's list holds every tenant's sessions)"),
  task: z.string().describe('The task id of the session'),
  format: z.string().describe('The log format of its step payloads'),
  agent: z.string().optional().describe('start.agent, if the client named it'),
  model: z.string().optional().describe('start.model, if the client named it'),
  state: sessionStateSchema,
  steps: z.number().int().describe('Steps scored so far'),
  total: z.number().describe("The last score frame's total (0 before any step); the final total once ended"),
  tier: tierSchema.describe('Projected tier while open; the real tier once ended with an outcome'),
  recentStages: z.string().describe('Stage letters (E, I, V, O) of the last steps (at most 40), oldest first'),
  lastSignal: z
    .object({
      kind: signalKindSchema,
      severity: severitySchema,
      t: z.number().int().describe('Step index at which it fired'),
      message: z.string().describe('What fired, in words'),
    })
    .optional()
    .describe('The most recent early-stop signal of the session, if any'),
  reference: referenceInfoSchema,
  startedAt: z.number().describe('When the session started (epoch milliseconds)'),
  endedAt: z.number().optional().describe('When it ended (epoch milliseconds)'),
  passed: z.boolean().optional().describe('The outcome the client reported, if any'),
});

export const sessionListResponseSchema = z.object({
  sessions: z
    .array(sessionSummarySchema)
    .describe("Open and recently ended sessions the server holds that the token may see (its tenant's; an operator's: every tenant's), oldest first, at most `limit`"),
  next: z.string().optional().describe('Present when there are more: pass it as `?after=` to read the next page'),
});

/** One scored step as the web view draws it. */
export const viewStepSchema = z.object({
  t: z.number().int().describe('Step index (0-based)'),
  seq: z.number().int().optional().describe('The seq of the message that completed it (sessions only)'),
  stage: stageSchema,
  kind: z.string().describe('The action kind of the step (shell, edit, view, ...)'),
  tool: z.string().describe('The tool name as logged'),
  text: z.string().describe('What the step did, one line (command, file, query), at most 100 characters'),
  file: z.string().optional().describe('The file the step acted on, if any'),
  failed: z.boolean().describe('True when the step failed (exit code or error output)'),
  score: scoreVectorSchema,
  reward: z.number().describe('f_t - f_(t-1): the change of the composite this step made'),
  tier: tierSchema,
});

/** `GET /v1/sessions/:id/steps` and `POST /v1/score/steps`: every step of a trajectory, its signals and its report. */
export const trajectoryViewSchema = z.object({
  session: z.string().optional().describe('The session id (absent for a POSTed trajectory)'),
  tenant: z.string().optional().describe('The tenant of the session (absent for a POSTed trajectory)'),
  task: z.string().describe('The task id'),
  format: z.string().describe('The log format the steps were read in'),
  agent: z.string().optional().describe('start.agent, if named'),
  model: z.string().optional().describe('start.model, if named'),
  state: sessionStateSchema.optional(),
  steps: z.array(viewStepSchema).describe('Every scored step, in order'),
  signals: z.array(signalSchema).describe('Every early-stop signal fired, in order'),
  report: trajectoryReportSchema.describe('The report so far (open session) or the final one'),
  final: finalMessageSchema.optional().describe("The session's final frame once it ended"),
});

/** `GET /v1/sessions/:id/alignment`: the trajectory's path over its task's current PTA. */
export const alignmentSchema = z.object({
  task: z.string().describe('The task whose PTA the path is drawn over'),
  version: z.number().int().describe('The PTA version aligned against'),
  steps: z
    .array(
      z.object({
        t: z.number().int().describe('Step index'),
        node: z.number().int().nullable().describe('The PTA node the step matched (index into the PTA nodes), null when it matched none'),
      }),
    )
    .describe('Per step, the node it matched (the maximum bipartite matching behind Φcov)'),
  matchedNodes: z.array(z.number().int()).describe('Every PTA node some step matched'),
  bestPath: z
    .object({
      nodes: z.array(z.number().int()).describe('The nodes of the reference path with the best ordered recall, root to terminal'),
      hits: z.array(z.number().int()).describe('Those of its nodes the trajectory hit in order'),
    })
    .nullable()
    .describe('The reference path the trajectory follows best (behind Φstruct); null when the PTA has no path'),
});

/** `POST /v1/score/steps`: the trajectory view, and its path over the task's PTA when the task has one. */
export const scoreStepsResponseSchema = trajectoryViewSchema.extend({ alignment: alignmentSchema.optional().describe("The trajectory's path over its task's PTA, when the task has one") });

/** `GET /v1/calibration`: whether `serve --calibration DIR` is set, and the chosen policy of the calibration found there. */
export const calibrationResponseSchema = z.union([
  z.object({ configured: z.literal(false).describe('No serve --calibration DIR was given') }),
  z.object({
    configured: z.literal(true).describe('serve --calibration DIR was given'),
    writtenAt: z.string().describe('When calibration.json was written (ISO time)'),
    policy: z.unknown().describe('The chosen early-stop policy (what calibrate --out writes and serve --policy loads)'),
    maxFalseStop: z.number().optional().describe('The false-stop bound it was chosen under'),
    confidence: z.number().optional().describe("The confidence of that bound's upper limit (e.g. 0.95)"),
    warnOnly: z.boolean().optional().describe('true: no stop held on the held-out check (or too few passing runs), so the written policy only warns'),
    note: z.string().optional().describe('Why the written policy only warns, as calibrate printed it'),
    check: z.string().optional().describe("calibrate's held-out check of the stops: half (task splits), source (leave one source out) or none (in-sample only, unconfirmed)"),
    runs: z
      .object({
        passing: z.number().optional().describe('Passing runs it was calibrated on'),
        failing: z.number().optional().describe('Failing runs it was calibrated on'),
      })
      .optional()
      .describe('The runs it was calibrated on'),
  }),
]);

/** `GET /web/info` (no token needed): whether the page must ask for a token. */
export const webInfoSchema = z.object({ auth: z.enum(['token', 'open']).describe('token: the page must ask for a bearer token; open: the server takes requests without one') });

/** What a session viewer of the live feed gets with each score frame: the step it scored. */
export const liveStepSchema = viewStepSchema.pick({ kind: true, tool: true, text: true, file: true, failed: true });

/**
 * One event of `GET /v1/live` (Server-Sent Events, one JSON object per `data:` line). Without
 * `?session=`: a `snapshot` of every session first; then `session` (a row changed: opened,
 * attached, detached, ended), the sessions' own `score`, `signal` and `final` frames as their
 * clients got them, and `gone` (freed). With `?session=ID`: a `view` of that session first, then
 * the same events for it alone, each `score` frame with the `step` it scored.
 */
const liveTenant = { tenant: z.string().optional().describe("The session's tenant (an operator's feed holds every tenant's sessions, whose ids may repeat)") };

export const liveEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('snapshot').describe("First event without ?session=: every session the token may see (its tenant's; an operator's: all)"),
    sessions: z.array(sessionSummarySchema).describe('One row per session'),
  }),
  trajectoryViewSchema.extend({ type: z.literal('view').describe('First event with ?session=ID: the whole session so far') }),
  sessionSummarySchema.extend({ type: z.literal('session').describe('A session row changed (opened, attached, detached, ended)') }),
  scoreMessageSchema.extend({ step: liveStepSchema.optional().describe('The step the frame scored (?session=ID viewers only)'), ...liveTenant }),
  signalMessageSchema.extend(liveTenant),
  finalMessageSchema.extend(liveTenant),
  z.object({ type: z.literal('gone').describe('The server freed the session'), session: z.string().describe('The session id'), ...liveTenant }),
]);

export type SessionSummary = z.infer<typeof sessionSummarySchema>;
export type SessionListResponse = z.infer<typeof sessionListResponseSchema>;
export type ViewStep = z.infer<typeof viewStepSchema>;
export type TrajectoryView = z.infer<typeof trajectoryViewSchema>;
export type AlignmentBody = z.infer<typeof alignmentSchema>;
export type ScoreStepsResponse = z.infer<typeof scoreStepsResponseSchema>;
export type LiveEvent = z.infer<typeof liveEventSchema>;
export type LiveStep = z.infer<typeof liveStepSchema>;
export type CalibrationResponse = z.infer<typeof calibrationResponseSchema>;
