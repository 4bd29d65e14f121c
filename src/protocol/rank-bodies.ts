/** Zod schemas of `POST /v1/rank` (issue 26 item 3; docs/rank.md): N runs of one task, best first. */
import { z } from 'zod';
import { taskIdSchema } from './client-messages.js';
import { formatOrAutoSchema, trajectorySchema } from './http-bodies.js';
import { referenceInfoSchema } from './report-schemas.js';
import { ASKED_BASES } from '../core/rank/rank.js';
import { RANK_MODELS } from '../core/forecast/end-model.js';

/** Most runs one rank call may carry. */
export const MAX_RANK_RUNS = 64;

const runSchema = z
  .object({
    trajectory: trajectorySchema.optional(),
    format: formatOrAutoSchema.optional(),
    task: taskIdSchema.optional().describe("The run's task when its log names none (else the log's; else the body's task)"),
    session: z.string().min(1).max(256).optional().describe('A session of this server started with the same token, open or kept after its end: ranked by its score so far'),
    id: z.string().min(1).max(256).optional().describe('A name for the run in the answer (default: the session id, or runs[i])'),
    agent: z.string().min(1).max(256).optional().describe("The run's agent: picks its source's forecast model (as POST /v1/score's agent); default: the body's agent, else the agent the log names"),
    model: z.string().min(1).max(256).optional().describe("The run's model: picks its source's forecast model (as POST /v1/score's model); default: the body's model, else the model the log names"),
  })
  .refine((r) => r.trajectory !== undefined || r.session !== undefined, 'give trajectory (a finished run) or session (a session id): the run has neither')
  .refine((r) => r.trajectory === undefined || r.session === undefined, 'give trajectory (a finished run) or session (a session id), not both')
  .refine((r) => r.session === undefined || (r.agent === undefined && r.model === undefined), 'agent and model are for a trajectory: a session was scored with the source its start named')
  .describe('One run: a finished trajectory, or a session of this server by id');

export const rankRequestSchema = z.object({
  task: taskIdSchema.optional().describe('The task of the group (a run whose log names no task is of this task); a run of another task makes the group mixed'),
  runs: z.array(runSchema).min(1, 'at least one run').max(MAX_RANK_RUNS, `at most ${MAX_RANK_RUNS} runs`).describe(`1 to ${MAX_RANK_RUNS} runs of one task`),
  consensus: z.boolean().optional().describe('Without a forecast model and a PTA, order by agreement with the other runs on where to edit (basis consensus) rather than the reference-free composite'),
  basis: z
    .enum(ASKED_BASES)
    .optional()
    .describe(
      'Without a forecast model and a PTA, order by this rather than the reference-free composite: consensus (as "consensus": true) or vote (how many runs made the same normalised final patch, ties by the composite; a session run only when its end carried its patch: a session keeps no step text)',
    ),
  mixedTasks: z.boolean().optional().describe('Rank runs of different tasks anyway (refused with mixed_tasks otherwise)'),
  agent: z.string().min(1).max(256).optional().describe("The runs' agent (the CLI's rank --agent): picks their source's forecast model; a run's own agent, else its log's, when absent"),
  model: z.string().min(1).max(256).optional().describe("The runs' model (the CLI's rank --model): picks their source's forecast model; a run's own model, else its log's, when absent"),
  rankModel: z
    .enum(RANK_MODELS)
    .optional()
    .describe(
      "Which of the server's forecast models gives each trajectory its pPass (the CLI's rank --rank-model): prefix (the default: the model live sessions are scored by, at the last step) or end (the file's end-of-run model, for finished runs). Session runs keep the prefix model. Refused with no_forecast_model when the server has no forecast model, or for end none with an end-of-run model",
    ),
});

export const rankBasisSchema = z
  .enum(['pPass', 'pta', 'consensus', 'vote', 'reference-free', 'mixed'])
  .describe(
    "What the group is ordered by: pPass (the server's forecast model), pta (the composite against the task's PTA), consensus (asked for: agreement on where to edit, ties by the composite), vote (asked for: runs with the same normalised final patch, ties by the composite), reference-free (the composite against the prior), mixed (the composite, runs scored against different references)",
  );

export const rankedRunSchema = z.object({
  index: z.number().int().describe('Position of the run in the request'),
  id: z.string().describe('Its name: the request id, the session id, or runs[i]'),
  task: z.string().optional().describe('Its task, when known'),
  rank: z.number().int().describe('1 = best; tied runs share the rank of the first of them (1, 1, 3)'),
  tied: z.boolean().describe("Its score equals a neighbour's: no order between them"),
  score: z.number().describe('The value the group is ordered by: pPass in [0, 1], a composite in [0, 100], a consensus in [0, 1], or a vote (a count of runs)'),
  composite: z.number().describe('Its composite score (0-100) against its reference'),
  reference: referenceInfoSchema,
  pPass: z.number().min(0).max(1).optional().describe("P(pass) from the server's forecast model, when one is loaded"),
  pPassInSample: z
    .boolean()
    .optional()
    .describe(
      'true: a run the forecast model was trained on (its pPass is in-sample, optimistic); false: not. Absent without a pPass, for session runs, or when the model file lists no training runs',
    ),
  pPassModel: z
    .enum(RANK_MODELS)
    .optional()
    .describe('The model that gave its pPass (prefix, or end: the end-of-run model), when the request named a rankModel and the run has a pPass; a session run is always prefix'),
  consensus: z.number().optional().describe("Mean Jaccard similarity of its edit locations (files, scopes) to the other runs' (basis consensus)"),
  vote: z.number().int().optional().describe('Runs of the group, itself included, whose normalised final patch is the same as its own; 0 for a patch that changes no source (basis vote)'),
  steps: z.number().int().describe('Steps scored'),
  open: z.literal(true).optional().describe("A session not ended yet: ranked on its steps so far (its score is not a finished run's). Absent for trajectories and ended sessions"),
});

export const unrankedRunSchema = z.object({
  index: z.number().int().describe('Position of the run in the request'),
  id: z.string().describe('Its name: the request id, the session id, or runs[i]'),
  task: z.string().optional().describe('Its task, when known'),
  reason: z.string().describe('Why it is not ranked: "no steps" (a rollout that ended before its first step)'),
});

export const rankResponseSchema = z.object({
  task: z.string().nullable().describe("The group's task (null: no run names one, or mixedTasks)"),
  by: rankBasisSchema,
  rankModel: z
    .enum(RANK_MODELS)
    .optional()
    .describe("The request's rankModel: which forecast model scored its trajectories (each run's pPassModel says which scored it). Absent when the request named none"),
  runs: z.array(rankedRunSchema).describe('Best first'),
  unranked: z.array(unrankedRunSchema).describe('Runs with no step, left out of the order (empty when every run has one)'),
  basisFlat: z
    .literal(true)
    .optional()
    .describe(
      "Basis consensus or vote, 2 runs or more: every run has the same value (e.g. every vote 1, no two runs made the same patch; two runs always share one consensus), so the basis decided nothing and the order is the composite's alone. Absent otherwise",
    ),
  oneRun: z
    .literal(true)
    .optional()
    .describe(
      'Exactly one run ranked (the others, if any, unranked): there was no ranking (steplens rank prints "1 run, so no ranking" and rank -). Its rank stays 1, an int as always, for readers that pick or sort by it. Absent with 2 runs or more',
    ),
});

export type RankRequest = z.infer<typeof rankRequestSchema>;
export type RankResponse = z.infer<typeof rankResponseSchema>;
