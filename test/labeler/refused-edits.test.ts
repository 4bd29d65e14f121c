/**
 * An editor edit the tool refused changed no file. SWE-agent 0.x's `edit` runs a linter and, on a syntax error, leaves
 * the file as it was ("Your changes have NOT been applied"): 1,241 steps of ../shared/calibration's two SWE-agent 0.x
 * sources were read as file changes. Such a step is a failed edit attempt: stage I (the agent implementing), but no
 * change, no source edit, no edit volume, and the shadow workspace keeps the text it had.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { stepEditVolume } from '../../src/core/reliability/patch-churn.js';
import { labelSteps } from '../../src/core/state-builder.js';
import { stepFailed } from '../../src/core/state/failure.js';
import type { Step } from '../../src/core/types.js';
import { parseInstancesText } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

function fixtureSteps(name: string): Step[] {
  const path = fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
  const r = parseInstancesText(gunzipSync(readFileSync(path)).toString('utf8'), 'auto', path);
  if (!r.ok || r.value[0] === undefined) throw new Error(`cannot parse ${name}`);
  return r.value[0].steps;
}

const edit = (observation: string): Step => ({ t: 0, tool: 'edit', action: { kind: 'edit', op: 'replace_lines', path: 'a.py', range: [1, 1], new: 'x' }, observation });

describe('refused editor edits', () => {
  // SWE-agent 0.x + gpt-4, resolved: open numberformat.py, three edits of line 70 the linter refused, then one applied
  // (test/fixtures/README.md).
  const steps = fixtureSteps('swe-agent-0__django__django-16046.traj.gz');
  const out = labelSteps(steps, defaultAnalyzers());

  it('are failed I-stage attempts that change nothing and set no source edit', () => {
    expect(steps.map((s) => s.action.kind)).toEqual(['search', 'view', 'edit', 'edit', 'edit', 'edit', 'finish']);
    for (const i of [2, 3, 4]) {
      expect(out[i]?.label).toMatchObject({ stage: 'I', kind: 'edit', rule: 3, changesFile: false, sourceEdit: false });
      expect(out[i]?.state).toMatchObject({ failed: true, changesFile: false });
      expect(out[i]?.state.changesEnv).toBeUndefined();
      expect(stepEditVolume(steps[i]!)).toBe(0);
    }
    expect(out[5]?.label).toMatchObject({ stage: 'I', changesFile: true, sourceEdit: true });
    expect(out[5]?.state.failed).toBe(false);
    // 69:70 replaced (2 lines) by 4 new ones.
    expect(stepEditVolume(steps[5]!)).toBe(6);
  });

  it('leave the shadow text as it was: every later edit is scoped on the file the agent opened', () => {
    // Applied to the shadow text, the first refused edit (its lines unindented) put line 70 at the top level, and the
    // next edit of it was scoped `<module>`.
    expect(out.slice(2, 6).map((o) => o.state.scope)).toEqual(Array(4).fill('django/utils/numberformat.py::format'));
  });

  it('the linter wording, and an applied edit whose window quotes an error, are told apart', () => {
    // calibration/nus-apr__auto-code-rover/results/swe-agent-results/cost_2_1/astropy__astropy-6938.traj, step 4 (head).
    expect(
      stepFailed(
        edit('Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit commmand.\n\nERRORS:\n- E999 IndentationError: expected an indented block\n'),
      ),
    ).toBe(true);
    // calibration/nus-apr__auto-code-rover/results/swe-agent-results/cost_2_3/pallets__flask-4992.traj, step 16 (head):
    // an applied edit of a test that asserts on the text `No such file or directory`.
    const applied =
      '[File: /pallets__flask/tests/test_config.py (270 lines total)]\n(170 more lines above)\n171:    assert msg.startswith(\n172:        "[Errno 2] Unable to load configuration file (No such file or directory):"\n173:    )\n';
    expect(stepFailed(edit(applied))).toBe(false);
    // calibration/NL2Code__CodeR/trajs/django__django-15202.traj, step 13 (head): `create` of a file that exists.
    expect(stepFailed(edit("Error: File 'reproduce.py' already exists.\n[File: /django__django/reproduce.py (35 lines total)]\n1:import django\n"))).toBe(true);
  });

  it('on the corpus: no editor edit that failed counts as a change, in any format', () => {
    let failed = 0;
    const repos = new Set<string>();
    for (const run of corpusRuns()) {
      const labelled = labelSteps(run.steps, defaultAnalyzers());
      run.steps.forEach((s, i) => {
        if (s.action.kind !== 'edit' || !labelled[i]!.state.failed) return;
        failed++;
        repos.add(run.name.split('/')[0]!);
        expect(labelled[i]!.label.changesFile).toBe(false);
        expect(stepEditVolume(s)).toBe(0);
      });
    }
    // SWE-agent 0.x's refused edits and `create` of a file that exists (multi-swe-bench's Java runs), OpenHands' and
    // SWE-agent 1.x's str_replace that matched nothing or more than once (OpenHands' own examples, gsmoon97, christsakm).
    expect(failed).toBeGreaterThanOrEqual(40);
    expect([...repos].sort()).toEqual(['OpenHands__OpenHands', 'christsakm__Trajectories', 'gsmoon97__swe-agent-eval', 'multi-swe-bench__experiments']);
  });
});
