/**
 * steplens JSON Lines: downstream, steps are ordered by `t` (a repeat is blind when nothing changed after the
 * earlier step's `t`). Records whose `t` repeats or goes back (numbered by turn, all 0) are renumbered after the
 * previous step, each named in a diagnostic, and score as the same steps numbered 0..n-1 do.
 */
import { describe, expect, it } from 'vitest';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { scoreSteps } from '../../src/core/scorer.js';
import type { Step } from '../../src/core/types.js';
import { parseTrajectoryText } from '../../src/formats/index.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusText } from './corpus.js';

const FILE = 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_bench1/django__django-13401/django__django-13401.traj.json';

function parse(text: string, source: string) {
  const r = parseTrajectoryText(text, 'auto', source);
  if (!r.ok) throw r.error;
  return r.value;
}

const score = (steps: readonly Step[]) => scoreSteps(steps, { reference: { kind: 'prior', prior: UNIFORM_PRIOR }, analyzers: defaultAnalyzers() }).report;

describe('steplens records whose t repeats or goes back', () => {
  const steps = parse(corpusText(FILE), FILE).steps;
  const jsonl = (t: (i: number) => number) => steps.map((s, i) => JSON.stringify({ ...s, t: t(i) })).join('\n');

  it.each([
    ['all 0', () => 0],
    ['numbered by turn', (i: number) => Math.floor(i / 2)],
  ])('%s: renumbered, named, and scored as numbered 0..n-1', (_name, t) => {
    const r = parse(jsonl(t), 'run.jsonl');
    expect(r.format).toBe('steplens');
    // The signals first: as written, the repeats were read as blind retries.
    expect(score(r.steps).signals).toEqual(score(steps).signals);
    expect(r.steps.map((s) => s.t)).toEqual(steps.map((_, i) => i));
    expect(r.diagnostics[0]).toEqual({ at: 'line 2', message: "t 0 is not after the previous step's t 0; numbered 1" });
  });

  it('increasing t, even with gaps, is kept as written and silent', () => {
    const r = parse(
      jsonl((i) => 10 + 3 * i),
      'run.jsonl',
    );
    expect(r.steps.map((s) => s.t)).toEqual(steps.map((_, i) => 10 + 3 * i));
    expect(r.diagnostics).toEqual([]);
  });
});
