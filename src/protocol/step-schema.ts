/**
 * Zod schemas of the normalised step (one line of the `steplens` format, one
 * `step` payload of a `steplens` session). They mirror `Step` and `Action` of
 * src/core/types.ts field for field; a type-level check below keeps them in sync.
 */
import { z } from 'zod';
import type { Action, Step } from '../core/types.js';

const lineRange = z.tuple([z.number().int(), z.number().int()]);

/** The normalised action of one step. */
export const actionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shell'), command: z.string() }),
  z.object({ kind: z.literal('code'), language: z.string(), code: z.string() }),
  z.object({ kind: z.literal('view'), path: z.string(), range: lineRange.optional() }),
  z.object({
    kind: z.literal('edit'),
    op: z.enum(['create', 'str_replace', 'insert', 'write', 'undo', 'replace_lines']),
    path: z.string(),
    old: z.string().optional(),
    new: z.string().optional(),
    text: z.string().optional(),
    range: lineRange.optional(),
  }),
  z.object({ kind: z.literal('search'), query: z.string().optional(), path: z.string().optional() }),
  z.object({ kind: z.literal('list'), path: z.string().optional() }),
  z.object({ kind: z.literal('think'), text: z.string().optional() }),
  z.object({ kind: z.literal('finish'), text: z.string().optional() }),
  z.object({ kind: z.literal('message'), text: z.string().optional() }),
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('other'), name: z.string() }),
]);

/** One normalised agent step. */
export const stepSchema = z.object({
  t: z.number().int().nonnegative(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()).optional(),
  action: actionSchema,
  observation: z.string().optional(),
  exitCode: z.number().int().optional(),
  tokens: z
    .object({ prompt: z.number().nonnegative().optional(), completion: z.number().nonnegative().optional() })
    .optional(),
  timestamp: z.string().optional(),
  thought: z.string().optional(),
  cwd: z.string().optional(),
  id: z.string().optional(),
});

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compile-time proof that the schemas produce exactly the core types. */
export const STEP_SCHEMA_MATCHES: Same<z.infer<typeof stepSchema>, Step> & Same<z.infer<typeof actionSchema>, Action> = true;

/** One `steplens` JSON Lines record: a step whose `t` may be omitted (it is then the record's position). */
export const stepRecordSchema = stepSchema.extend({ t: z.number().int().nonnegative().optional() });
