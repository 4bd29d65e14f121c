import type { Step } from '../types.js';

const TERMINAL_FAILURE = [
  /Traceback \(most recent call last\)/,
  /^(FAILED|ERROR)\b/m,
  /^=+ .*\b\d+ (failed|errors?)\b.* =+$/m,
  /command not found/,
  /No such file or directory/,
  /^(bash|sh): .*: (syntax error|unexpected)/m,
  /BUILD FAILURE|COMPILATION ERROR/,
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
];

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
      return TERMINAL_FAILURE.some((re) => re.test(obs));
    case 'edit':
    case 'view':
    case 'search':
    case 'list':
      return TOOL_FAILURE.some((re) => re.test(obs.slice(0, 600)));
    default:
      return false;
  }
}
