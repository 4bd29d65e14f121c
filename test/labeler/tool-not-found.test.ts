/**
 * SWE-agent 0.x's own commands report a missing path, a malformed call and a restarted shell in words of their own
 * ("File X not found", "Directory X not found", "Usage: search_file ...", "COMMAND FAILED TO EXECUTE"), with no exit
 * code: 89 steps of ../shared/calibration (SWE-agent 0.x + gpt-4 63, CodeR + gpt-4 26) were read as succeeding views
 * and searches, so a run's failed states, retries and the forecaster's failure counts missed them.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { classifyToolFailure } from '../../src/core/reliability/index.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { stepFailed } from '../../src/core/state/failure.js';
import type { Action, Step } from '../../src/core/types.js';
import { parseInstancesText } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

const step = (action: Action, observation: string): Step => ({ t: 0, tool: action.kind, action, observation });
const view: Action = { kind: 'view', path: 'django/db/migrations/test_commands.py' };
const search: Action = { kind: 'search', query: 'test_commands.py' };

describe("SWE-agent 0.x's tool failures", () => {
  it('a missing file or folder, a usage line and a restarted shell are failed steps', () => {
    // calibration/NL2Code__CodeR/trajs/django__django-11039.traj, steps 4 and 5.
    expect(stepFailed(step(view, 'File django/db/migrations/test_commands.py not found\n'))).toBe(true);
    expect(stepFailed(step(search, 'Directory django/db/migrations/tests not found\n'))).toBe(true);
    // calibration/NL2Code__CodeR/trajs/django__django-12856.traj, step 40.
    const usage = 'Usage: search_file <search_term> [<file>]\nError: File name django/db/migrations not found. Please provide a valid file name.\n';
    expect(stepFailed(step(search, usage))).toBe(true);
    // calibration/nus-apr__auto-code-rover/results/swe-agent-results/cost_2_1/django__django-15789.traj, step 3.
    const restarted = '\nCOMMAND FAILED TO EXECUTE. RESTARTING PROCESS.';
    expect(stepFailed(step({ kind: 'other', name: 'edit' }, restarted))).toBe(true);
    expect(stepFailed(step({ kind: 'shell', command: 'python reproduce.py' }, restarted))).toBe(true);
  });

  it("GNU grep's hint after a bad option is a failed search; a tool's own --help is not", () => {
    // calibration/NL2Code__CodeR: `search_dir "--notes"` passes the option on to grep.
    const badOption = "grep: unrecognized option '--notes'\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";
    expect(stepFailed(step(search, badOption))).toBe(true);
    const help = "Usage: grep [OPTION]... PATTERNS [FILE]...\nSearch for PATTERNS in each FILE.\nExample: grep -i 'hello world' menu.h main.c\n";
    expect(stepFailed(step(search, help))).toBe(false);
  });

  it('count as agent-induced tool failures (ATFR, method.md section 9) of the kind they are', () => {
    expect(classifyToolFailure(step(view, 'File django/db/migrations/test_commands.py not found\n'))).toBe('path_not_found');
    expect(classifyToolFailure(step(search, 'Directory django/db/migrations/tests not found\n'))).toBe('path_not_found');
    expect(classifyToolFailure(step(search, 'Usage: search_file <search_term> [<file>]\nError: File name django/db/migrations not found.\n'))).toBe('malformed_arguments');
    expect(classifyToolFailure(step(search, "grep: unrecognized option '--notes'\nTry 'grep --help' for more information.\n"))).toBe('malformed_arguments');
    expect(classifyToolFailure(step(search, 'Usage: grep [OPTION]... PATTERNS [FILE]...\nSearch for PATTERNS in each FILE.\n'))).toBeNull();
  });

  it('a search that found nothing, and a file whose text says "not found", are not', () => {
    expect(stepFailed(step(search, 'No matches found for "reproduce.py" in /django__django\n'))).toBe(false);
    const window = '[File: /django__django/reproduce.py (3 lines total)]\n1:File x not found\n2:Usage: run it\n3:\n';
    expect(stepFailed(step(view, window))).toBe(false);
  });

  it('a real run: its `open` of a missing file is a failed step', () => {
    // nus-apr/auto-code-rover cost_2_3/django__django-13401.traj (test/fixtures/README.md), step 9.
    const path = fileURLToPath(new URL('../fixtures/swe-agent-0__django__django-13401.traj.gz', import.meta.url));
    const r = parseInstancesText(gunzipSync(readFileSync(path)).toString('utf8'), 'auto', path);
    if (!r.ok || r.value[0] === undefined) throw new Error('cannot parse the fixture');
    const steps = r.value[0].steps;
    expect(steps[9]?.observation).toBe('File /django__django/django/db/models/fields.py not found\n');
    const states = labelSteps(steps, defaultAnalyzers());
    expect(states[9]?.state.failed).toBe(true);
  });
});
