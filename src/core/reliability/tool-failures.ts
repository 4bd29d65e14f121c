/**
 * Classifier of agent-induced tool failures (ATFR, method.md section 9).
 *
 * A step counts as a tool call unless it is a plain message, or a turn with
 * neither a tool call nor an observation. A tool call is an agent-induced
 * failure when its observation shows, in this order:
 * - `timeout`: the command was killed for running too long (`timed out`, exit 124);
 * - `shell_syntax`: the shell rejected the command line (`syntax error near
 *   unexpected token`, `unexpected EOF while looking for matching`, ...);
 * - `command_not_found`: `command not found` or exit 127;
 * - `path_not_found` (editor form): `Invalid \`path\` parameter`, `The path ... does not exist`, SWE-agent 0.x's
 *   `File X not found` / `Directory X not found`;
 * - `malformed_arguments`: the tool rejected its arguments or the turn had no
 *   parsable action (`Parameter \`old_str\` is required`,
 *   `did not appear verbatim`, `No replacement was performed`, format errors;
 *   SWE-agent 0.x's `edit` refused by its linter: `Your proposed edit has introduced new syntax error(s)`,
 *   the file left unchanged, as the labeler reads it in state/failure.ts; its usage line for a malformed command,
 *   `Usage: edit <start_line>:<end_line>`; GNU grep's `Try 'grep --help'` after a bad option);
 * - `path_not_found`: `No such file or directory` / `can't open file` /
 *   `The path ... does not exist` near the start of the output (the command's
 *   own error, not a traceback deep inside a test run).
 * Anything else is not counted: test assertion failures, non-zero exits of
 * test runs, compiler errors, and infrastructure failures (which never reach
 * an observation, or are censored attempts).
 */
import type { Step } from '../types.js';
import type { AgentFailureKind } from './types.js';

const RULES: ReadonlyArray<[AgentFailureKind, RegExp]> = [
  ['timeout', /timed out and has been killed|command timed out|timeoutexpired|command took too long|\btimed out after \d+/i],
  ['shell_syntax', /syntax error near unexpected token|unexpected EOF while looking for matching|syntax error: unexpected end of file|unterminated quoted string|bad substitution/i],
  ['command_not_found', /: command not found|: not found\s*$/im],
  // SWE-agent 0.x's `open` / `find_file` / `search_dir`: `File X not found`, `Directory X not found` (a line of its own).
  ['path_not_found', /invalid `path` parameter|the path \S+ does not exist|^(?:file|directory) \S+ not found$/im],
  [
    'malformed_arguments',
    /parameter `\w+` is required|invalid `\w+` parameter|did not appear verbatim|no replacement was performed|exactly one (?:action|bash code block)|format error|failed to parse (?:the )?(?:tool|function|action)|unrecognized (?:command|arguments)|invalid choice:|^your proposed edit has introduced new syntax error|^usage: \w+ <|^try '\S+ --help' for more information/im,
  ],
];
const PATH_RULE = /no such file or directory|can't open file|the path \S+ does not exist|cannot access '|file or directory not found/i;
const HEAD = 600;

/** True when the step is a tool call (the ATFR denominator). */
export function isToolCall(step: Step): boolean {
  if (step.action.kind === 'message') return false;
  if (step.action.kind === 'none') return (step.observation ?? '').trim() !== '';
  return true;
}

/** The agent-induced failure kind of a step, or null when it did not fail by the agent's fault. */
export function classifyToolFailure(step: Step): AgentFailureKind | null {
  if (!isToolCall(step)) return null;
  const obs = step.observation ?? '';
  if (step.exitCode === 124) return 'timeout';
  const window = obs.length > 2 * HEAD ? `${obs.slice(0, HEAD)}\n${obs.slice(-HEAD)}` : obs;
  for (const [kind, re] of RULES) if (re.test(window)) return kind;
  if (step.exitCode === 127) return 'command_not_found';
  if (PATH_RULE.test(obs.slice(0, HEAD)) && step.exitCode !== 0) return 'path_not_found';
  return null;
}
