/**
 * What `train` prints of its evaluation, on synthetic runs (one feature row per run):
 * - a source that no leave-one-source-out model could score (the other sources lack a passing run) is listed
 *   with the reason, not dropped from the table;
 * - a side of one run has no bootstrap interval (`[-]`, not "0.000 [0.00, 0.00]");
 * - the task-fold figures say kappa was chosen on those same fold scores (the figures themselves unchanged).
 */
import { describe, expect, it } from 'vitest';
import { forecastText } from '../../src/cli/train-forecast-text.js';
import { est } from '../../src/cli/train-cells.js';
import { trainForecast } from '../../src/core/forecast/train.js';
import { clusteredRateInterval, clustersBy } from '../../src/core/stats/clustered.js';
import { syntheticSource } from './synthetic-source.js';

const source = syntheticSource;

const options = { folds: 3, seed: 1, reps: 100 };
const line = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start));

describe('train text', () => {
  it('counts one task and one pair in the singular (audit19: "within task (1 tasks, ...)")', () => {
    // A's one passing run and one of its failing runs share task t0; B's runs share none.
    const r = trainForecast([...source('A', 1, 7, 1), ...source('B', 3, 3, 2)], options);
    expect(line(forecastText(r.evaluation, r.models), 'within task (')).toMatch(/^within task \(1 task, 1 pass\/fail pair\) /);
  });

  it('lists a source no leave-one-source-out model could score, with the reason', () => {
    // B has no passing run: A, left out, has nothing to be scored by.
    const runs = [...source('A', 6, 6, 1), ...source('B', 0, 8, 2)];
    const r = trainForecast(runs, options);
    expect(r.evaluation.leaveSourceOut.notScored).toEqual([{ source: 'A + m', nPass: 6, nFail: 6, reason: 'not scored: the other sources have no passing run to fit a model on' }]);
    const text = forecastText(r.evaluation, r.models);
    const losoTable = text.slice(text.indexOf('leave one source out, per source'), text.indexOf('calibration, leave one source out'));
    expect(line(losoTable, 'A + m *')).toMatch(/^A \+ m \* +6 \/ 6 +not scored: the other sources have no passing run to fit a model on/);
    expect(losoTable).toMatch(/\nB \+ m \* +0 \/ 8 /);
    // Nothing chosen on one steering source: no caveat on the task folds.
    expect(text).not.toContain('optimistic');
  });

  it('scores the one steering source by a model of the others when they hold both outcomes (it was dropped)', () => {
    // A is the only source with 3 passing and failing runs: nothing is chosen, and A was once never held out.
    const r = trainForecast([...source('A', 6, 6, 1), ...source('B', 2, 2, 2)], options);
    expect(r.evaluation.leaveSourceOut.notScored).toEqual([]);
    expect(r.evaluation.leaveSourceOut.end.withinSource.sources.map((s) => [s.source, s.nPass, s.nFail])).toEqual([
      ['A + m', 6, 6],
      ['B + m', 2, 2],
    ]);
  });

  it("prints the best-of-N top, random and oracle picks each with its rate and the rate's interval (not an interval beside a count)", () => {
    const runs = [...source('A', 12, 12, 1), ...source('B', 12, 12, 2)];
    const r = trainForecast(runs, options);
    const text = forecastText(r.evaluation, r.models);
    const table = text.slice(text.indexOf('top pick resolves'));
    const row = line(table, 'A + m');
    expect(row, table).toBeDefined();
    // Three picks, each `count (rate [lo, hi])`, then the gap closed. Every one of the 7 groups holds a pass, so the
    // oracle resolves in every resample too: no interval (`[-]`, audit21), not a zero-width `[1.00, 1.00]`.
    expect(row!.match(/\d+\.\d \(\d\.\d{3} (\[\d\.\d\d, \d\.\d\d\]|\[-\])\)/g)).toHaveLength(3);
    expect(row).toContain('7.0 (1.000 [-])');
  });

  it('prints [-] for a side of one run and marks the task-fold figures as chosen on those folds', () => {
    const runs = [...source('A', 6, 6, 1), ...source('B', 6, 6, 2), ...source('C', 1, 2, 3)];
    const r = trainForecast(runs, options);
    const text = forecastText(r.evaluation, r.models);
    const c = r.evaluation.leaveSourceOut.end.withinSource.sources.find((s) => s.source === 'C + m')!;
    expect(c).toMatchObject({ nPass: 1, nFail: 2, interval: null });
    expect(line(text, 'C + m *')).toMatch(new RegExp(`^C \\+ m \\* +1 / 2 +${c.auroc!.toFixed(3)} \\[-\\] `));
    expect(r.evaluation.selection.kappas.length).toBeGreaterThan(1);
    const tf = r.evaluation.taskFolds.end.withinSource;
    expect(text).toContain(
      `task-disjoint folds (3 folds, new tasks of the sources trained on; kappa chosen on these folds' scores, the features on these runs: optimistic): mean within-source AUROC of pPass ${tf.mean!.toFixed(3)}`,
    );
    expect(text).toContain("task-disjoint folds, per source (3 folds, seed 1; kappa chosen on these folds' scores, the features on these runs: optimistic):");
    // So are the task folds' calibration and best-of-N (a gap closed there read as held out: 58.3 % on the shared runs).
    expect(text).toContain("\ncalibration, task-disjoint folds (kappa chosen on these folds' scores, the features on these runs: optimistic):\n");
    expect(text).toContain("\nbest-of-N, task-disjoint folds (kappa chosen on these folds' scores, the features on these runs: optimistic):\n");
  });

  it('gives the ECE before any outcome of a source its interval, as the recalibrated ECE beside it', () => {
    const runs = [...source('A', 8, 8, 1), ...source('B', 8, 8, 2), ...source('C', 8, 8, 3)];
    const r = trainForecast(runs, options);
    const lo = r.evaluation.leaveSourceOut;
    const text = forecastText(r.evaluation, r.models);
    const table = text.slice(text.indexOf('calibration, leave one source out:'), text.indexOf('reliability, leave one source out:'));
    expect(table).toMatch(
      /ECE \(10 bins\) \[95 %\] +perfectly calibrated at this n: ECE mean \(95th pct\) +debiased: ECE − noise floor \(the perfect mean\) \[95 %: the ECE interval, its lower end − floor, widened to hold it\] +ECE before any outcome of the source: the default model.s map fitted without it \(--default-map runs\) \[95 %\]/,
    );
    for (const s of ['A + m', 'B + m', 'C + m']) {
      const before = lo.uncalibrated[s]!;
      const check = lo.uncalibratedChecks![s]!;
      expect(check.ece).toBe(before.ece);
      expect(check.interval).not.toBeNull();
      const cell = `${before.ece!.toFixed(3)} [${check.interval!.lo.toFixed(2)}, ${check.interval!.hi.toFixed(2)}]`;
      // The debiased ECE (ece29) just before it, beside the ECE and its floor (audit30); the ECE before any outcome last.
      const d = lo.calibration.checks![s]!.debiased!;
      expect(line(table, s)!.trimEnd().endsWith(cell), line(table, s)).toBe(true);
      expect(line(table, s)).toMatch(new RegExp(`${est(d.ece, d.interval).replace(/[[\]().]/g, '\\$&')} +${cell.replace(/[[\]().]/g, '\\$&')}$`));
    }
  });

  it('says which sources the reliability table leaves out (under 20 runs), instead of dropping them silently', () => {
    const runs = [...source('A', 12, 12, 1), ...source('B', 6, 6, 2), ...source('C', 3, 3, 3), ...source('D', 2, 2, 4)];
    const r = trainForecast(runs, options);
    const text = forecastText(r.evaluation, r.models);
    const table = text.slice(text.indexOf('reliability, leave one source out:'), text.indexOf('best-of-N, leave one source out'));
    expect(table).toMatch(/\nA \+ m +0\.\d-/);
    expect(table).not.toMatch(/\n[BCD] \+ m /);
    expect(table).toContain('\n(3 sources with fewer than 20 runs, 22 runs in all, have no per-bin rows: their ECE is in the calibration table)\n');
  });

  it("gives the calibration table's pass rate its 95 % interval with the tasks' design effect (audit24: the rate with its n only)", () => {
    const runs = [...source('A', 12, 12, 1), ...source('B', 12, 12, 2)];
    const r = trainForecast(runs, options);
    const text = forecastText(r.evaluation, r.models);
    const table = text.slice(text.indexOf('calibration, leave one source out:'), text.indexOf('reliability, leave one source out:'));
    expect(table).toContain("pass rate [95 %: Wilson, tasks' design effect]");
    const cal = r.evaluation.leaveSourceOut.calibration;
    for (const s of ['A + m', 'B + m']) {
      const mine = runs.filter((x) => `${x.agent} + ${x.model}` === s);
      // 24 runs of 7 tasks: the rule of the report's rates (tasks repeat, so Wilson at the design effect's n).
      const want = clusteredRateInterval(clustersBy(mine, (x) => x.task).map((c) => ({ k: c.filter((x) => x.passed).length, n: c.length })))!;
      expect(cal.checks![s]!.passRate).toEqual(want);
      expect(line(table, s)).toMatch(new RegExp(`^${s.replace('+', '\\+')} +24 +\\S+ +0\\.500 \\[${want.lo.toFixed(2)}, ${want.hi.toFixed(2)}\\] `));
    }
    const all = clusteredRateInterval(clustersBy(runs, (x) => x.task).map((c) => ({ k: c.filter((x) => x.passed).length, n: c.length })))!;
    expect(cal.allCheck!.passRate).toEqual(all);
    expect(line(table, 'all runs, pooled over 2 sources')).toContain(`0.500 [${all.lo.toFixed(2)}, ${all.hi.toFixed(2)}]`);
  });
});
