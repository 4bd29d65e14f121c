/** Zod schemas of protocol v1 server → client messages (see proto/README.md). */
import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { ptaScopeSchema, referenceInfoSchema, tierSchema, scoreVectorSchema, severitySchema, signalKindSchema, stageSchema, trajectoryReportSchema } from './report-schemas.js';

export const WIRE_ERROR_CODES = [
  'bad_message',
  'unknown_session',
  'duplicate_session',
  'out_of_order',
  'too_large',
  'unauthorized',
  'overloaded',
  'internal',
  'unavailable',
  'forbidden',
  'quota_exceeded',
] as const;
export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

const type = <T extends string>(t: T, what: string) => z.literal(t).describe(what);
const session = z.string().describe('The session id');
const seq = z.number().int().describe('seq of the step message that completed this step');

export const startedMessageSchema = z.object({
  type: type('started', 'Answer to start: the session is open'),
  session,
  task: z.string().describe('The task id of the session'),
  format: z.string().describe('The log format of its step payloads'),
  reference: referenceInfoSchema,
});

export const scoreMessageSchema = z.object({
  type: type('score', 'The running score after one completed step'),
  session,
  seq,
  /** 0-based step index in the session (addition to v1: one seq may complete 0 or 2 steps). */
  t: z.number().int().describe('0-based index of the step in the session (one step message may complete 0, 1 or 2 steps)'),
  stage: stageSchema,
  score: scoreVectorSchema,
  reward: z.number().describe('Process reward of this step: f_t - f_(t-1) (f_(-1) = 0), so the rewards sum to the final score'),
  tier: tierSchema,
  reference: referenceInfoSchema,
  /** P(pass | the steps so far) from the server's forecast model (`serve --forecast`); absent without one. */
  pPass: z.number().min(0).max(1).optional().describe("P(pass | the steps so far) from the server's forecast model (serve --forecast); absent without one"),
});

export const signalMessageSchema = z.object({
  type: type('signal', 'An early-stop signal fired (sent right after the score frame of its step)'),
  session,
  seq,
  /** The step index at which the signal fired. */
  t: z.number().int().describe('The step (0-based index) at which the signal fired'),
  kind: signalKindSchema,
  severity: severitySchema,
  steps: z.array(z.number().int()).describe('The steps that show the pattern (0-based indices)'),
  message: z.string().describe('One human-readable line saying what was seen'),
});

/** Why a session ended (`final.reason`). */
export const FINAL_REASONS = ['end', 'idle', 'not_resumed', 'shutdown'] as const;
export type FinalReason = (typeof FINAL_REASONS)[number];

/** The class of the patch an `end` carried (core/rank/patch-class.ts): what the vote of POST /v1/rank compares. */
export const patchClassSchema = z
  .object({
    key: z
      .string()
      .nullable()
      .describe(
        'SHA-256 (hex) of the normalised source lines the patch changes: two runs with one key made the same change; null when it changes no source (empty, or tests, scratch scripts and notes only)',
      ),
    lines: z.number().int().describe('How many normalised source lines it changes (0 when key is null)'),
  })
  .describe("The class of the patch the client's end carried (its text is not kept): what POST /v1/rank's basis vote compares");

export const finalMessageSchema = trajectoryReportSchema.extend({
  type: type('final', 'The session ended: the whole-trajectory report'),
  session,
  /** The outcome the client reported, if any. */
  passed: z.boolean().optional().describe('The outcome the client reported, if any'),
  /** Set when a `learn` session that passed was ended by its client: the new version, or why nothing was learned. */
  learned: z
    .object({
      version: z.number().int().optional().describe('The PTA version after the merge (absent when nothing was learned)'),
      scope: ptaScopeSchema.optional(),
      error: z
        .object({
          code: z
            .enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]])
            .describe(
              "Stable error code (proto/README.md, Errors): too_large (a cap of the task's PTA), forbidden (with several tenants, the change needs an operator), quota_exceeded (the tenant used up its references), unavailable (the store cannot take it: disk full, Redis unreachable or out of memory), bad_input (no step to learn)",
            ),
          message: z.string().describe('One line saying why'),
        })
        .optional()
        .describe('Why nothing was learned (absent when the PTA grew)'),
    })
    .optional()
    .describe('Set when a learn session ended with passed: true by its end (reason end; a session the server ends learns nothing): the PTA version it grew to, or why nothing was learned'),
  patch: patchClassSchema.optional().describe("Set when the client's end carried a patch: its class (key, lines), which POST /v1/rank's basis vote compares"),
  /**
   * Why the session ended: the client's `end`, the idle timeout, not resumed within the resume
   * window, or the server shutting down (a client that reconnects may start the session again).
   */
  reason: z
    .enum(FINAL_REASONS)
    .optional()
    .describe("Why the session ended: end (the client's), idle (idle timeout), not_resumed (not resumed within the resume window), shutdown (the server is stopping)"),
});

export const resumedMessageSchema = z.object({
  type: type('resumed', 'Answer to resume: the session is on this connection'),
  session,
  /** Last seq the server holds for this session (-1: none). */
  last: z.number().int().describe('Last seq the server accepted for this session (-1: none); continue with last + 1'),
});

export const errorMessageSchema = z.object({
  type: type('error', 'A message was refused; nothing accepted before is lost and the connection stays open'),
  // Every wire code is a catalogue code (src/errors.ts): one that is not fails to compile.
  code: z.enum(WIRE_ERROR_CODES satisfies readonly ErrorCode[]).describe('Stable error code (proto/README.md, Errors)'),
  message: z.string().describe('One line naming what is wrong (e.g. the field)'),
  session: z.string().optional().describe('The session the refused message named'),
  seq: z.number().int().optional().describe('The seq of the refused step message: send it again'),
});

export const pongMessageSchema = z.object({ type: type('pong', 'Answer to ping') });

/** Every server message schema by its `type`. */
export const SERVER_MESSAGE_SCHEMAS = {
  started: startedMessageSchema,
  score: scoreMessageSchema,
  signal: signalMessageSchema,
  final: finalMessageSchema,
  resumed: resumedMessageSchema,
  error: errorMessageSchema,
  pong: pongMessageSchema,
} as const;

export const serverMessageSchema = z.discriminatedUnion('type', [
  startedMessageSchema,
  scoreMessageSchema,
  signalMessageSchema,
  finalMessageSchema,
  resumedMessageSchema,
  errorMessageSchema,
  pongMessageSchema,
]);

export type StartedMessage = z.infer<typeof startedMessageSchema>;
export type ScoreMessage = z.infer<typeof scoreMessageSchema>;
export type SignalMessage = z.infer<typeof signalMessageSchema>;
export type FinalMessage = z.infer<typeof finalMessageSchema>;
export type ResumedMessage = z.infer<typeof resumedMessageSchema>;
export type ErrorMessage = z.infer<typeof errorMessageSchema>;
export type ServerMessage = z.infer<typeof serverMessageSchema>;
