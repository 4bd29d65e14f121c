/** Zod schemas of the scorer's outputs as they travel on the wire (scores, signals, waste, reports). */
import { z } from 'zod';

export const stageSchema = z.enum(['E', 'I', 'V', 'O']).describe('Intent stage of a step: E exploration, I implementation, V verification, O orchestration');
export const tierSchema = z
  .enum(['Ideal', 'Solid', 'Lucky', 'Partial-fail', 'Off-track'])
  .describe(
    'Tier of the composite score f (default cuts): passing runs Ideal (f >= 70), Solid (47 <= f < 70), Lucky (f < 47); failing runs Partial-fail (f >= 47), Off-track (f < 47). Outcome unknown: the passing tier the score projects to',
  );
export const passTierSchema = z.enum(['Ideal', 'Solid', 'Lucky']).describe('Passing tier: Ideal (f >= 70), Solid (47 <= f < 70), Lucky (f < 47)');
export const luckySchema = z.enum(['C1', 'C2', 'C3', 'C4', 'C5', 'unclassified']).describe('Why a Lucky pass is lucky (method.md section 7): C1..C5, first match wins; unclassified when none applies');
export const signalKindSchema = z
  .enum(['blind_retry', 'regression_loop', 'cycle', 'exploration_streak', 'no_action', 'low_score', 'low_forecast', 'budget'])
  .describe(
    "Early-stop signal: blind_retry (an action repeated with nothing changed), regression_loop (edit then failing verification of one file, repeated), cycle (a block of states repeated in a row), exploration_streak (exploration steps in a row), no_action (turns in a row with no runnable action), low_score (running score below a floor after some steps), low_forecast (the forecast model's P(pass) below a floor after some steps), budget (steps or tokens over a budget)",
  );
export const severitySchema = z.enum(['warn', 'stop']).describe('warn: worth a look; stop: the policy says to stop the agent');

const score100 = (what: string) => z.number().describe(`${what}, 0-100`);

export const scoreVectorSchema = z
  .object({
    total: score100('Composite score f = weighted mean of the four signals (struct and cov on a 0-100 scale, coh and temp times 100)'),
    struct: z.number().nullable().describe('Φstruct, 0-100: F1 of ordered recall and unordered precision against the PTA paths; null when scored against the prior (no PTA)'),
    cov: z.number().nullable().describe('Φcov, 0-100: share of PTA nodes matched; null when scored against the prior (no PTA)'),
    coh: z.number().describe('Φcoh, 0-1: pivots and confirms vs backtracks, discounted by blind retries'),
    temp: z.number().describe('Φtemp, 0-1: 1 minus the mean Jensen-Shannon divergence of the stage mix in three windows vs the reference'),
  })
  .describe('Score of the trajectory (or prefix) so far');

/** Whose PTA of a task (server option `referenceScope` tenant): the one every tenant shares, or the tenant's own. */
export const ptaScopeSchema = z
  .enum(['shared', 'tenant'])
  .describe(
    "Whose PTA (only on a server whose reference scope is tenant): shared (the task's PTA, grown by operators) or tenant (the tenant's own, grown by its references, used by its sessions only)",
  );

export const referenceInfoSchema = z
  .object({
    kind: z.enum(['pta', 'prior']).describe("pta: the task's reference (at least 2 passing runs); prior: the stage-profile prior pooled from every stored reference"),
    version: z.number().int().optional().describe('PTA version: 1 after a build, +1 per added reference (kind pta only)'),
    paths: z.number().int().optional().describe('Root-to-terminal paths of the PTA (kind pta only)'),
  })
  .describe('What the session or trajectory is scored against');

const stepIndices = (what: string) => z.array(z.number().int()).describe(`${what} (0-based step indices t)`);

export const signalSchema = z
  .object({
    kind: signalKindSchema,
    severity: severitySchema,
    t: z.number().int().describe('The step (0-based index) at which the signal fired'),
    steps: stepIndices('The steps that show the pattern'),
    message: z.string().describe('One human-readable line saying what was seen'),
  })
  .describe('An early-stop signal that fired');

export const wasteItemSchema = z
  .object({
    category: z.enum(['regression_loop', 'blind_retry', 'redundant_step', 'irrelevant_exploration', 'cyclic_pattern']).describe('Waste category (method.md section 7)'),
    steps: stepIndices('The wasted steps'),
    tool: z.string().describe('The tool responsible (as the log names it)'),
    wastedSteps: z.number().describe('Number of wasted steps'),
    wastedTokens: z.number().describe("Estimated wasted tokens: the steps' own prompt + completion tokens where the log has them, else characters of action and observation / 4"),
  })
  .describe('One localised piece of waste');

/** The whole-trajectory report: `final` (plus `type`, `session`) and the body of `POST /v1/score`. */
export const trajectoryReportSchema = z.object({
  score: scoreVectorSchema,
  tier: tierSchema,
  lucky: luckySchema.optional(),
  waste: z.array(wasteItemSchema).describe('Waste report: every wasted episode with its steps, tool and cost'),
  signals: z.array(signalSchema).describe('Every early-stop signal that fired, in order (the same the stream sent)'),
  steps: z.number().int().describe('Number of steps scored'),
  stages: z.string().describe('One stage letter (E, I, V, O) per step, in order'),
  reference: referenceInfoSchema,
  unknown: z.number().int().describe('Steps no labeler rule matched (labelled by the fallback)'),
  pPass: z.number().min(0).max(1).optional().describe('P(pass | the whole trajectory) from the forecast model (serve --forecast, score --forecast); absent without one'),
  forecastVersion: z.number().int().optional().describe("Version of the forecast model that produced pPass (it stays the session's model for its whole life)"),
  pPassInSample: z
    .boolean()
    .optional()
    .describe(
      'true: this run is one the forecast model was trained on (listed by fingerprint in its file), so its pPass is in-sample (optimistic); false: it is not. Absent without a pPass, on streamed sessions, or when the model file lists no training runs',
    ),
});

/** What `POST /v1/score` (and each item of `/v1/score/batch`) answers: the report, and the records of the log it could not read. */
export const scoreResponseSchema = trajectoryReportSchema.extend({
  skipped: z
    .array(z.object({ at: z.string().describe('Where in the log: `line 12`, `history[5]`, `event 40`, ...'), message: z.string().describe('Why it was not read') }))
    .optional()
    .describe('Records of the log that could not be read and were left out of the score (at most 100 named; absent when every record was read)'),
  skippedCount: z.number().int().optional().describe('How many records were left out in all, when more than the 100 named in `skipped`'),
});
