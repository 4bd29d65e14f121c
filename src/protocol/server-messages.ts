/** Zod schemas of protocol v1 server → client messages (see proto/README.md). */
import { z } from 'zod';
import {
  passTierSchema, referenceInfoSchema, scoreVectorSchema, severitySchema, signalKindSchema, stageSchema, trajectoryReportSchema,
} from './report-schemas.js';

export const WIRE_ERROR_CODES = [
  'bad_message', 'unknown_session', 'duplicate_session', 'out_of_order', 'too_large', 'unauthorized', 'overloaded', 'internal',
] as const;
export type WireErrorCode = (typeof WIRE_ERROR_CODES)[number];

export const startedMessageSchema = z.object({
  type: z.literal('started'),
  session: z.string(),
  task: z.string(),
  format: z.string(),
  reference: referenceInfoSchema,
});

export const scoreMessageSchema = z.object({
  type: z.literal('score'),
  session: z.string(),
  seq: z.number().int(),
  /** 0-based step index in the session (addition to v1: one seq may complete 0 or 2 steps). */
  t: z.number().int(),
  stage: stageSchema,
  score: scoreVectorSchema,
  reward: z.number(),
  tier: passTierSchema,
  reference: referenceInfoSchema,
  /** P(pass | the steps so far) from the server's forecast model (`serve --forecast`); absent without one. */
  pPass: z.number().min(0).max(1).optional(),
});

export const signalMessageSchema = z.object({
  type: z.literal('signal'),
  session: z.string(),
  seq: z.number().int(),
  /** The step index at which the signal fired. */
  t: z.number().int(),
  kind: signalKindSchema,
  severity: severitySchema,
  steps: z.array(z.number().int()),
  message: z.string(),
});

/** Why a session ended (`final.reason`). */
export const FINAL_REASONS = ['end', 'idle', 'not_resumed', 'shutdown'] as const;
export type FinalReason = (typeof FINAL_REASONS)[number];

export const finalMessageSchema = trajectoryReportSchema.extend({
  type: z.literal('final'),
  session: z.string(),
  /** The outcome the client reported, if any. */
  passed: z.boolean().optional(),
  /** Set when a `learn` session grew its task's PTA: the new version. */
  learned: z.object({ version: z.number().int() }).optional(),
  /**
   * Why the session ended: the client's `end`, the idle timeout, not resumed within the resume
   * window, or the server shutting down (a client that reconnects may start the session again).
   */
  reason: z.enum(FINAL_REASONS).optional(),
});

export const resumedMessageSchema = z.object({
  type: z.literal('resumed'),
  session: z.string(),
  /** Last seq the server holds for this session (-1: none). */
  last: z.number().int(),
});

export const errorMessageSchema = z.object({
  type: z.literal('error'),
  code: z.enum(WIRE_ERROR_CODES),
  message: z.string(),
  session: z.string().optional(),
  seq: z.number().int().optional(),
});

export const pongMessageSchema = z.object({ type: z.literal('pong') });

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
