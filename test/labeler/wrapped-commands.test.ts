/**
 * Rule 1 and rule 2 on commands the labeler once missed (real steps): CodeR's `plan ... end_of_plan` is a plan
 * (O), `./manage.py test` runs tests as `python manage.py test` does (V), and `sh -c "..."` / `bash -lc "..."`
 * are read as the command line they run.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { labelSteps } from '../../src/core/state-builder.js';
import { parseTrajectoryText } from '../../src/formats/index.js';
import { createShellAnalyzer, defaultAnalyzers } from '../../src/syntax/index.js';
import { last, run } from './helpers.js';

const brief = (l: { stage: string; kind: string; file?: string }) => `${l.stage} ${l.kind}${l.file === undefined ? '' : ` ${l.file}`}`;

describe('commands behind a wrapper or a harness keyword', () => {
  it("CodeR's Manager plan (step 0 of a real CodeR run) is O think", () => {
    const file = new URL('../fixtures/coder__sympy__sympy-13971.traj.gz', import.meta.url);
    const r = parseTrajectoryText(gunzipSync(readFileSync(file)).toString('utf8'), 'auto', file.pathname);
    if (!r.ok) throw r.error;
    const step = r.value.steps[0]!;
    expect(step.action).toMatchObject({ kind: 'shell', command: expect.stringMatching(/^plan\n\{[\s\S]*\}\nend_of_plan$/) });
    expect(brief(labelSteps([step], defaultAnalyzers())[0]!.label)).toBe('O think');
    expect(brief(last('plan'))).not.toBe('O think'); // the word alone is not CodeR's plan
  });

  it('./manage.py test is V run_test, like python manage.py test', () => {
    // auto-code-rover's SWE-agent 0.x results, cost_2_2/django__django-12113.traj, t=4.
    const real = './manage.py test admin_views.test_multidb -v 3 --keepdb --parallel 1';
    expect(brief(last(real))).toBe(brief(last(`python ${real.slice(2)}`)));
    expect(last(real).stage).toBe('V');
    expect(last(real).kind).toBe('run_test');
    expect(brief(last('./manage.py migrate'))).not.toMatch(/^V/);
  });

  it('sh -c / bash -lc run their argument as a command line', () => {
    // LiveSWE-Agent gpt-5-mini, pytest-dev__pytest-7521 t=17: a test file written and run inside `bash -lc`.
    const script =
      "cat > test_capfd.py <<'PYT'\ndef test_cafd_includes_carriage_return(capfd):\n    print('Greetings from DOS', end='\\r')\n    out, err = capfd.readouterr()\n    assert out.endswith('\\r')\nPYT\npytest -q";
    const wrapped = `bash -lc "${script.replace(/\\/g, '\\\\')}"`;
    const shell = createShellAnalyzer();
    expect(shell.parse(wrapped).commands).toEqual(shell.parse(script).commands);
    expect(run([wrapped]).map((s) => brief(s.label))).toEqual(run([script]).map((s) => brief(s.label)));
    expect(brief(last('sh -c "pytest -q"'))).toBe(brief(last('pytest -q')));
    expect(last('sh -c "pytest -q"').stage).toBe('V');
    expect(shell.parse('cd /testbed && bash -c "python -m pytest tests/x.py | tail -5"').commands.map((c) => [c.name, c.pipelineIndex])).toEqual([
      ['python', 0],
      ['tail', 1],
    ]);
    expect(shell.parse('bash reproduce.sh').commands[0]).toMatchObject({ name: 'bash', args: ['reproduce.sh'] });
  });
});
