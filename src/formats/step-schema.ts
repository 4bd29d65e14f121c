/**
 * Zod schemas of the normalised step: one record of the `steplens` format, which the
 * protocol (a layer above) also takes as the `step` payload of a `steplens` session.
 * They mirror `Step` and `Action` of src/core/types.ts field for field; a type-level
 * check below keeps them in sync.
 */
import { z } from 'zod';
import type { Action, Step } from '../core/types.js';

let built: ReturnType<typeof buildStepSchema> | undefined;

/**
 * Builds the step schema (and the action schema inside it) once, on first use: a command that reads no
 * `steplens` JSON Lines and takes no frames does not pay for it at start (issue 24).
 */
function buildStepSchema() {
  const RANGE = 'line range [first, last], 1-based, both ends inclusive ([3, 3] is line 3 alone)';
  const lineRange = z.tuple([z.number().int(), z.number().int()]).describe(`A ${RANGE}`);
  const rangeOf = (what: string) => lineRange.optional().describe(`${what}: a ${RANGE}`);
  const kind = <T extends string>(k: T, what: string) => z.literal(k).describe(what);
  const path = z.string().describe('File or directory path as the agent wrote it (relative to the repository or absolute)');

  /** The normalised action of one step. */
  const actionSchema = z
    .discriminatedUnion('kind', [
      z.object({ kind: kind('shell', 'A shell command line'), command: z.string().describe('The command line as run (may hold several commands, pipes, heredocs)') }),
      z.object({ kind: kind('code', 'Code run in an interpreter (e.g. an IPython cell)'), language: z.string().describe('The language, e.g. python'), code: z.string().describe('The code') }),
      z.object({ kind: kind('view', 'A file read'), path, range: rangeOf('The lines shown (absent: the whole file)') }),
      z.object({
        kind: kind('edit', 'A file change through an editor tool'),
        op: z
          .enum(['create', 'str_replace', 'insert', 'write', 'undo', 'replace_lines'])
          .describe('create / write: whole file text; str_replace: old -> new; insert: new after a line; replace_lines: lines range -> new; undo: revert the last edit'),
        path,
        old: z.string().optional().describe('str_replace: the replaced text'),
        new: z.string().optional().describe('str_replace / insert / replace_lines: the new text'),
        text: z.string().optional().describe('create / write: the whole file text'),
        range: rangeOf('replace_lines: the replaced lines; insert: [n, n], the new text goes after line n (0: at the top)'),
      }),
      z.object({ kind: kind('search', 'A search (grep-like tool)'), query: z.string().optional().describe('What was searched for'), path: path.optional().describe('Where (file or directory)') }),
      z.object({ kind: kind('list', 'A directory listing'), path: path.optional().describe('The directory') }),
      z.object({ kind: kind('think', 'Reasoning without an action'), text: z.string().optional().describe('The text') }),
      z.object({ kind: kind('finish', 'The agent ends the run (submit, finish)'), text: z.string().optional().describe('Its final message, if any') }),
      z.object({ kind: kind('message', 'A message to the user'), text: z.string().optional().describe('The text') }),
      z.object({ kind: kind('none', 'A turn with no action (e.g. a reply without a tool call)') }),
      z.object({ kind: kind('other', 'A tool steplens does not map'), name: z.string().describe('The tool name') }),
    ])
    .describe('What the step did, normalised from any log format');

  /** One normalised agent step. */
  return z.object({
    t: z.number().int().nonnegative().describe('0-based position of the step in the trajectory (a steplens session replaces it with its own count)'),
    tool: z.string().describe('Tool name as the log spells it (bash, str_replace_editor, open, ...)'),
    args: z.record(z.string(), z.unknown()).optional().describe('Raw tool arguments, for display only (not scored)'),
    action: actionSchema,
    observation: z.string().optional().describe('What the tool returned (stdout/stderr, file text, ...)'),
    exitCode: z.number().int().optional().describe('Exit code of a shell command, when the log has it'),
    tokens: z
      .object({
        prompt: z.number().nonnegative().optional().describe('Prompt (input) tokens of the model call that produced this step'),
        completion: z.number().nonnegative().optional().describe('Completion (output) tokens of that call'),
      })
      .optional()
      .describe(
        'Token counts of the model call that produced the step, as the log records them; used for waste and budgets (absent: characters of action and observation / 4). One call that made several tool calls: put its tokens on one of its steps only',
      ),
    timestamp: z.string().optional().describe('When the step happened (ISO 8601)'),
    thought: z.string().optional().describe("The model's reasoning text for this step"),
    cwd: z.string().optional().describe('Working directory the command ran in'),
    id: z.string().optional().describe('Source identifier (event id, tool_call_id)'),
  });
}

const stepObject = () => (built ??= buildStepSchema());

/** One normalised agent step. */
export const stepSchema = z.lazy(stepObject);

/** The normalised action of one step. */
export const actionSchema = z.lazy(() => stepObject().shape.action);

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compile-time proof that the schemas produce exactly the core types. */
export const STEP_SCHEMA_MATCHES: Same<z.infer<typeof stepSchema>, Step> = true;
export const ACTION_SCHEMA_MATCHES: Same<z.infer<typeof actionSchema>, Action> = true;

/** One `steplens` JSON Lines record: a step whose `t` may be omitted (it is then the record's position). */
export const stepRecordSchema = z.lazy(() =>
  stepObject().extend({
    t: z.number().int().nonnegative().optional().describe('0-based position of the step; absent: its position in the file'),
  }),
);
