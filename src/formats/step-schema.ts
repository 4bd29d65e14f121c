/** Structural validation of one normalised Step (a `steplens` JSON Lines record). */
import { z } from 'zod';

const range = z.tuple([z.number().int(), z.number().int()]);

/** The Action union of src/core/types.ts as a zod schema. */
export const actionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('shell'), command: z.string() }),
  z.object({ kind: z.literal('code'), language: z.string(), code: z.string() }),
  z.object({ kind: z.literal('view'), path: z.string(), range: range.optional() }),
  z.object({
    kind: z.literal('edit'),
    op: z.enum(['create', 'str_replace', 'insert', 'write', 'undo', 'replace_lines']),
    path: z.string(),
    old: z.string().optional(),
    new: z.string().optional(),
    text: z.string().optional(),
    range: range.optional(),
  }),
  z.object({ kind: z.literal('search'), query: z.string().optional(), path: z.string().optional() }),
  z.object({ kind: z.literal('list'), path: z.string().optional() }),
  z.object({ kind: z.literal('think'), text: z.string().optional() }),
  z.object({ kind: z.literal('finish'), text: z.string().optional() }),
  z.object({ kind: z.literal('message'), text: z.string().optional() }),
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('other'), name: z.string() }),
]);

/** One Step; `t` may be omitted (it is then the record's position). */
export const stepSchema = z.object({
  t: z.number().int().nonnegative().optional(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()).optional(),
  action: actionSchema,
  observation: z.string().optional(),
  exitCode: z.number().int().optional(),
  tokens: z.object({ prompt: z.number().nonnegative().optional(), completion: z.number().nonnegative().optional() }).optional(),
  timestamp: z.string().optional(),
  thought: z.string().optional(),
  cwd: z.string().optional(),
  id: z.string().optional(),
});

/** A one-line description of the first problems zod found. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length > 0 ? i.path.join('.') : 'record'}: ${i.message}`)
    .join('; ');
}
