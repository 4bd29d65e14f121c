/**
 * bench/pta-matched.ts on the real corpus runs and their published outcomes: every run is compared with
 * references of n − 1 passing runs. A passing run gets what `train`'s rule gives it (the PTA of the other passing
 * runs); a failing run gets the mean of its signals against each of those PTAs, not its signals against the PTA
 * of all n; a task with a single passing run gives no sample.
 */
import { describe, expect, it } from 'vitest';
import { matchedPtaSamples } from '../../bench/pta-matched.js';
import { readCorpusInput } from '../../src/cli/corpus-input.js';
import { ptaSamples } from '../../src/cli/train-references.js';
import { trainAnalyzers, trainInput } from '../../src/cli/train-runs.js';
import { leaveOneOutPtas } from '../../src/core/calibrate/references.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { UNIFORM_PRIOR } from '../../src/core/prior.js';
import { buildPta } from '../../src/core/pta/build.js';
import { compareRunKeys } from '../../src/core/run-order.js';
import { createScorer } from '../../src/core/scorer.js';
import type { Pta, Reference } from '../../src/core/scorer-api.js';
import type { Step } from '../../src/core/types.js';
import { nodeReportFs } from '../../src/report/node-fs.js';
import { nameRuns } from '../../src/report/run-naming.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

const prior: Reference = { kind: 'prior', prior: UNIFORM_PRIOR };
const analyzers = defaultAnalyzers();
const { found } = readCorpusInput([CORPUS_DIR], {}, '/', 'pta-matched');
const known = trainInput(nameRuns(nodeReportFs, found.trajectories), prior, trainAnalyzers(analyzers), DEFAULT_CONFIG).known;

describe('size-matched leave-one-out references (bench/pta-matched.ts)', () => {
  it('passing runs as train scores them; failing runs averaged over the PTAs of n − 1 passing runs; single-pass tasks left out', () => {
    const matched = matchedPtaSamples(known, prior, analyzers, DEFAULT_CONFIG, 1);
    const today = new Map(ptaSamples(known, prior, analyzers, DEFAULT_CONFIG, 1).map((s) => [s.id, s]));
    const passingOf = (task: string) => known.filter((k) => k.run.task === task && k.run.passed);
    // Tasks of the corpus with 2+ passing runs and a failing run (astropy-12907, django-10914, ...), and with one passing run (astropy-14182).
    expect(matched.some((s) => !s.passed)).toBe(true);
    expect(known.some((k) => !k.run.passed && passingOf(k.run.task).length === 1)).toBe(true);
    for (const s of matched) expect(passingOf(s.task!).length).toBeGreaterThanOrEqual(2);
    let failing = 0;
    for (const s of matched) {
      if (s.passed) {
        expect(s).toEqual(today.get(s.id));
        continue;
      }
      const k = known.find((x) => x.run.id === s.id)!;
      const passing = passingOf(s.task!);
      const states = passing.map((p) => statesOf(p.trajectory.steps));
      const ptas = leaveOneOutPtas(
        passing.map((p, i) => ({ key: p.trajectory.path, task: p.run.task, passed: true, states: states[i]! })),
        1,
      ) as Pta[];
      const each = ptas.map((pta) => {
        const scorer = createScorer({ reference: { kind: 'pta', pta }, analyzers, config: DEFAULT_CONFIG });
        for (const step of k.trajectory.steps) scorer.push(step);
        return scorer.score();
      });
      const mean = (f: (v: (typeof each)[number]) => number) => each.reduce((a, v) => a + f(v), 0) / each.length;
      expect(s.struct).toBeCloseTo(
        mean((v) => v.struct ?? 0),
        10,
      );
      expect(s.cov).toBeCloseTo(
        mean((v) => v.cov ?? 0),
        10,
      );
      expect(s.coh).toBeCloseTo(
        mean((v) => v.coh),
        10,
      );
      expect(s.temp).toBeCloseTo(
        mean((v) => v.temp),
        10,
      );
      failing += 1;
    }
    expect(failing).toBeGreaterThanOrEqual(3);
  });

  it("ptaSamples' older rule (`all`, what pta-rules and pta-loo read with --failing-reference all): a failing run meets the PTA of every passing run", () => {
    const all = ptaSamples(known, prior, analyzers, DEFAULT_CONFIG, 1, 'all');
    const matched = ptaSamples(known, prior, analyzers, DEFAULT_CONFIG, 1);
    const passingOf = (task: string) => known.filter((k) => k.run.task === task && k.run.passed);
    // A failing run of a task with one passing run: scored against that run's PTA under `all`, not at all when matched.
    const single = known.filter((k) => !k.run.passed && passingOf(k.run.task).length === 1);
    expect(single.length).toBeGreaterThan(0);
    for (const k of single) {
      expect(all.some((s) => s.id === k.run.id)).toBe(true);
      expect(matched.some((s) => s.id === k.run.id)).toBe(false);
    }
    for (const s of all.filter((x) => !x.passed)) {
      const k = known.find((x) => x.run.id === s.id)!;
      // In the order leaveOneOutPtas inserts them (a PTA's paths follow it).
      const refs = passingOf(k.run.task).sort((a, b) => compareRunKeys(a.trajectory.path, b.trajectory.path));
      const pta = buildPta(
        k.run.task,
        refs.map((p) => statesOf(p.trajectory.steps)),
      );
      const scorer = createScorer({ reference: { kind: 'pta', pta }, analyzers, config: DEFAULT_CONFIG });
      for (const step of k.trajectory.steps) scorer.push(step);
      expect(s.struct).toBe(scorer.score().struct ?? 0);
    }
    // Passing runs meet the PTA of the other passing runs under both rules.
    for (const s of all.filter((x) => x.passed)) expect(s).toEqual(matched.find((m) => m.id === s.id));
  });
});

function statesOf(steps: readonly Step[]) {
  const scorer = createScorer({ reference: prior, analyzers, config: DEFAULT_CONFIG });
  for (const s of steps) scorer.push(s);
  return scorer.states();
}
