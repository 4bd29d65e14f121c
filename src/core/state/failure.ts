import type { Step } from '../types.js';

/** SWE-agent 0.x's harness: the command timed out or crashed its shell (a terminal step's or a tool's). */
const RESTARTED = /^COMMAND FAILED TO EXECUTE\. RESTARTING PROCESS\./m;

const TERMINAL_FAILURE = [
  /Traceback \(most recent call last\)/,
  /^(FAILED|ERROR)\b/m,
  /command not found/,
  /No such file or directory/,
  /^(bash|sh): .*: (syntax error|unexpected)/m,
  /BUILD FAILURE|COMPILATION ERROR/,
  RESTARTED,
];
const TOOL_FAILURE = [
  /No replacement was performed/,
  /did not appear verbatim/,
  /does not exist\. Please provide a valid path/,
  /No such file or directory/,
  /^(Error|ERROR):/m,
  /Invalid `?\w+`? parameter/i,
  // SWE-agent 1.x's editor: "Invalid `view_range`: [1, 400]. Its second element ..."
  /^Invalid `\w+`:/m,
  // SWE-agent 0.x's `edit`: its linter rejected the edit and left the file unchanged ("Your changes have NOT been applied").
  /^Your proposed edit has introduced new syntax error/m,
  // SWE-agent 0.x's `open`, `find_file` and `search_dir` on a path that is not there, its usage line for a malformed
  // command (`Usage: edit <start_line>:<end_line>`; not a tool's own `--help`, whose usage has no `<...>`), GNU
  // grep's hint after a bad option, and a command its harness had to restart.
  /^(File|Directory) .+ not found$/m,
  /^Usage: \w+ </m,
  /^Try '\S+ --help' for more information\.?$/m,
  RESTARTED,
];

/** Where an editor starts echoing file text: an ACI window (`[File: p (N lines total)]`) or a `cat -n` snippet. */
const FILE_ECHO = /^\[File: .+ \(\d+ lines total\)\]|Here's the result of running `cat -n`/m;

/**
 * The head of a tool's observation that holds its own message: the first 600 characters, up to the file text it
 * echoes. An applied edit's window may quote `No such file or directory` (a flask test file did).
 */
function toolHead(obs: string): string {
  const head = obs.slice(0, 600);
  const echo = FILE_ECHO.exec(head);
  return echo === null ? head : head.slice(0, echo.index);
}

/** `N failed` / `N error(s)` in the middle part of a pytest summary line: `=+ ... =+`. */
const SUMMARY_COUNT = /\b\d+ (failed|errors?)\b/;

/**
 * True when a line of `text` is a pytest summary with failures: what `/^=+ .*\b\d+ (failed|errors?)\b.* =+$/m`
 * matches, checked line by line. That regex backtracks quadratically on a long line that opens with `= ` and
 * does not close (a 216 KB observation took 22 s, blocking the server); here each line costs linear time.
 */
export function hasFailureSummary(text: string): boolean {
  // Each `=` that opens a line, found by indexOf, its line read in place: no string per line (a split of 1 MiB of
  // `a\n` made 524,288 of them, ~60 ms; a global regex, a match object per line of `=`, ~30 ms).
  for (let at = text.indexOf('='); at !== -1; at = text.indexOf('=', at + 1)) {
    if (at > 0 && !isLineEnd(text.charCodeAt(at - 1))) continue;
    let to = at;
    while (to < text.length && !isLineEnd(text.charCodeAt(to))) to++;
    if (summaryLine(text, at, to)) return true;
    at = to;
  }
  return false;
}

/** The terminators `^`/`$` see under the `m` flag; `.` matches none of them either. */
function isLineEnd(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

/** The line `text[from, to)` of {@link hasFailureSummary}, opening with `=` (read in place: no copy of it). */
function summaryLine(text: string, from: number, to: number): boolean {
  // `^=+ ` can only take the whole leading run of `=`, ` =+$` the whole trailing run: a shorter run is followed
  // (preceded) by `=`, not the space. The count lies between them; the spaces there keep its `\b`s as they were.
  let start = from;
  while (start < to && text.charCodeAt(start) === 61 /* = */) start++;
  if (start === to || text.charCodeAt(start) !== 32) return false;
  let end = to;
  while (end > start && text.charCodeAt(end - 1) === 61) end--;
  if (end === to || text.charCodeAt(end - 1) !== 32) return false;
  return start + 1 <= end - 1 && SUMMARY_COUNT.test(text.slice(start + 1, end - 1));
}

/**
 * True when the step failed: a non-zero exit code, or (exit code unknown) a
 * recognisable failure in the observation: a Python traceback, pytest
 * `FAILED`/`ERROR` lines or summary, `command not found`, `No such file or directory`.
 * File views are judged by tool errors only (their text may quote anything).
 */
export function stepFailed(step: Step): boolean {
  if (step.exitCode !== undefined) return step.exitCode !== 0;
  const obs = step.observation;
  if (obs === undefined || obs === '') return false;
  switch (step.action.kind) {
    case 'shell':
    case 'code':
    case 'other':
      return TERMINAL_FAILURE.some((re) => re.test(obs)) || hasFailureSummary(obs);
    case 'edit':
    case 'view':
    case 'search':
    case 'list': {
      const head = toolHead(obs);
      return TOOL_FAILURE.some((re) => re.test(head));
    }
    default:
      return false;
  }
}
