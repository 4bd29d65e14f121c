/** Zod schemas of protocol v1 client → server messages (see proto/README.md). */
import { z } from 'zod';
import { policyInputSchema } from '../core/policy.js';
import { FORMAT_NAMES, type FormatName } from '../formats/types.js';

/** The longest session id. */
export const SESSION_ID_MAX = 128;

/** A session id: printable, at most 128 characters; not a dot segment, which URLs fold (GET /v1/sessions/.. could not read it). */
export const sessionIdSchema = z
  .string()
  .min(1)
  .max(SESSION_ID_MAX)
  .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
  .regex(/^(?!\.\.?$)/, 'not "." or "..": URLs fold them as path segments, so GET /v1/sessions/ID could not read the session')
  .describe('Session id: 1-128 printable ASCII characters without spaces, not "." or ".."');
/** True when `s` has no unpaired UTF-16 surrogate (such an id has no UTF-8 spelling: two ids would share one file). */
export const wellFormed = (s: string): boolean => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** The longest task id, in UTF-16 code units: a store key longer than this is never a task's (store/tenant-keys.ts). */
export const TASK_ID_MAX_LENGTH = 256;
/** A task id, as the benchmark spells it (`django__django-11099`); any well-formed unicode up to 256 characters (the store hashes long names). */
export const taskIdSchema = z
  .string()
  .min(1)
  .max(TASK_ID_MAX_LENGTH)
  .refine(wellFormed, 'not well-formed unicode (an unpaired surrogate)')
  .describe('Task id as the benchmark spells it (e.g. django__django-11099); picks the reference PTA');
export const formatSchema = z
  .enum(FORMAT_NAMES as [FormatName, ...FormatName[]], {
    error: () => `expected one of ${FORMAT_NAMES.join(', ')}`,
  })
  .describe('Log format of the step payloads: steplens (normalised steps, step.schema.json) or one raw event of openhands, swe-agent, mini-swe-agent, atif (see proto/README.md, "Raw events")');
export const seqSchema = z.number().int().nonnegative().describe("0-based number of the client's step message in the session: 0, 1, 2, ...");
const type = <T extends string>(t: T, what: string) => z.literal(t).describe(what);

export const startMessageSchema = z.object({
  type: type('start', 'Opens a session'),
  session: sessionIdSchema.optional().describe('Session id to use; the server makes one when absent (returned in started)'),
  task: taskIdSchema,
  format: formatSchema.optional().describe('Log format of the step payloads (default steplens)'),
  agent: z.string().max(256).optional().describe('The agent (harness) producing the steps, e.g. "mini-swe-agent 1.1"; selects a per-agent policy or forecaster where the server has one'),
  model: z.string().max(256).optional().describe('The model driving the agent, e.g. "openai/gpt-5-mini"; selects a per-model policy or forecaster where the server has one'),
  policy: policyInputSchema.optional().describe("Early-stop policy for this session: overrides the server's policy field by field"),
  learn: z.boolean().optional().describe("true: when the session ends with passed true, merge it into its task's PTA as a new reference"),
});

export const stepMessageSchema = z.object({
  type: type('step', 'One step of the session'),
  session: sessionIdSchema,
  seq: seqSchema,
  /** One step in the session's format; validated per format by the session. */
  step: z
    .unknown()
    .refine((v) => v !== undefined, 'required')
    .describe('One step in the session format: a steplens Step (step.schema.json), or one raw event of the format, paired by the server'),
});

export const outcomeMessageSchema = z.object({
  type: type('outcome', 'The test outcome of the run (any time before end; tiers of later steps follow it)'),
  session: sessionIdSchema,
  passed: z.boolean().describe('true: the tests passed'),
});

/**
 * Longest `end.patch`, in characters (UTF-16 code units, as JSON strings count them): 512 Ki, half the default frame
 * limit (maxFrameBytes, 1 MiB), so that the limit a client meets is this one, named. The vote compares at most the
 * first 4,096 changed lines of a patch (core/rank/final-patch.ts), about 160 KB of code at 40 characters a line.
 */
export const MAX_END_PATCH_CHARS = 512 * 1024;

export const endMessageSchema = z.object({
  type: type('end', 'No more steps: flush, score and answer final'),
  session: sessionIdSchema,
  patch: z
    .string({ error: 'expected a string: the unified diff of the run\'s final work (git diff), "" for none' })
    .max(MAX_END_PATCH_CHARS, `at most ${MAX_END_PATCH_CHARS} characters (the session stays open: send end again with a shorter patch, or none)`)
    .optional()
    .describe(
      `The run's final patch: the unified diff of its work (the output of git diff in its sandbox; "" for no change), at most ${MAX_END_PATCH_CHARS} characters. The server keeps only its class (final.patch) for POST /v1/rank's vote, not its text`,
    ),
});

export const resumeMessageSchema = z.object({
  type: type('resume', 'Moves the session to this connection after a reconnect'),
  session: sessionIdSchema,
  /** Last seq the client saw scored; -1 when it saw none. */
  after: z.number().int().min(-1).describe('Last seq the client saw scored (-1: none); frames with a greater seq are re-sent'),
});

export const pingMessageSchema = z.object({ type: type('ping', 'Keep-alive; answered by pong') });

/** Every client message schema by its `type`. */
export const CLIENT_MESSAGE_SCHEMAS = {
  start: startMessageSchema,
  step: stepMessageSchema,
  outcome: outcomeMessageSchema,
  end: endMessageSchema,
  resume: resumeMessageSchema,
  ping: pingMessageSchema,
} as const;

export const clientMessageSchema = z.discriminatedUnion('type', [startMessageSchema, stepMessageSchema, outcomeMessageSchema, endMessageSchema, resumeMessageSchema, pingMessageSchema]);

export type StartMessage = z.infer<typeof startMessageSchema>;
export type StepMessage = z.infer<typeof stepMessageSchema>;
export type OutcomeMessage = z.infer<typeof outcomeMessageSchema>;
export type EndMessage = z.infer<typeof endMessageSchema>;
export type ResumeMessage = z.infer<typeof resumeMessageSchema>;
export type PingMessage = z.infer<typeof pingMessageSchema>;
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type ClientMessageType = keyof typeof CLIENT_MESSAGE_SCHEMAS;
