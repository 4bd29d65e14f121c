/**
 * What `train` prints as held out is held out (review of the held-out figures): leave one source out keeps the
 * scored run's task out of the fit too (sources share tasks), the configuration a steering source is scored under
 * is chosen on runs without it, and intervals resample tasks, not the runs of one task. Synthetic feature rows.
 */
import { describe, expect, it } from 'vitest';
import { endScores } from '../../src/core/forecast/crossfit.js';
import { evaluateView } from '../../src/core/forecast/evaluate.js';
import { FEATURE_COUNT, PROCESS_FEATURES, FEATURE_NAMES } from '../../src/core/forecast/features.js';
import { sourceOf, type ForecastRun } from '../../src/core/forecast/run.js';
import { selectConfig } from '../../src/core/forecast/select.js';
import { heldOutBySource, trainForecast } from '../../src/core/forecast/train.js';
import { auroc } from '../../src/core/stats/auroc.js';
import { rng } from './rng.js';

/**
 * Three sources that ran the same tasks: a task's outcome is the same in every source, and its feature values are
 * the task's own random draws (plus a little noise per run), unrelated to the outcome. Nothing in a run predicts
 * its outcome on a new task; a model fitted on other sources' runs of the same tasks recognises the task.
 */
function sharedTasks(tasks: number, seed: number): ForecastRun[] {
  const r = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const cols = PROCESS_FEATURES.map((f) => FEATURE_NAMES.indexOf(f));
  const out: ForecastRun[] = [];
  for (let t = 0; t < tasks; t++) {
    const passed = t % 2 === 0;
    const values = cols.map(() => normal());
    for (const agent of ['A', 'B', 'C']) {
      const rows = new Float64Array(FEATURE_COUNT);
      cols.forEach((c, j) => (rows[c] = values[j]! + 0.05 * normal()));
      out.push({ id: `${agent}${t}`, task: `t${t}`, agent, model: 'm', passed, length: 1, at: Int32Array.from([1]), rows });
    }
  }
  return out;
}

const aurocOf = (runs: readonly ForecastRun[], ends: ReadonlyArray<number | null>, source: string): number => {
  const pos: number[] = [];
  const neg: number[] = [];
  runs.forEach((r, i) => {
    if (sourceOf(r) === source && ends[i] !== null) (r.passed ? pos : neg).push(ends[i]!);
  });
  return auroc(pos, neg)!.auroc;
};

describe("train's held-out figures", () => {
  it("leave one source out does not train on the scored run's task through another source", () => {
    const runs = sharedTasks(60, 5);
    // The setup leaks when the task is trained on: scored by models fitted on the other sources only.
    const shared = endScores(heldOutBySource(runs, selectConfig(runs, 5, 1)));
    expect(aurocOf(runs, shared, 'A + m')).toBeGreaterThan(0.8);
    const { evaluation } = trainForecast(runs, { folds: 5, seed: 1, reps: 200 });
    const held = evaluation.leaveSourceOut.end.withinSource;
    for (const s of held.sources) expect(s.auroc!).toBeLessThan(0.7);
    expect(held.mean!).toBeLessThan(0.65);
  });

  it("a steering source's configuration is chosen without its runs: its outcomes do not move the choice", () => {
    const runs = sharedTasks(60, 7);
    const flipped = runs.map((r) => (r.agent === 'A' ? { ...r, passed: !r.passed } : r));
    const a = selectConfig(runs, 5, 1);
    const b = selectConfig(flipped, 5, 1);
    expect(a.steering).toEqual(b.steering);
    expect(b.chosenApart['A + m']).toBe(a.chosenApart['A + m']);
  });

  it('intervals resample tasks: three identical runs of every task draw the interval one run of each draws', () => {
    const r = rng(3);
    const one: ForecastRun[] = [];
    for (let t = 0; t < 80; t++) {
      const rows = new Float64Array(FEATURE_COUNT);
      one.push({ id: `r${t}`, task: `t${t}`, agent: 'A', model: 'm', passed: r() < 0.4, length: 1, at: Int32Array.from([1]), rows });
    }
    const z = one.map((x) => Float64Array.from([(x.passed ? 0.8 : 0) + r()]));
    const three = one.flatMap((x) => [0, 1, 2].map((k) => ({ ...x, id: `${x.id}-${k}` })));
    const z3 = z.flatMap((v) => [v, v, v]);
    const a = evaluateView(one, z, z, { reps: 300 }).end.withinSource;
    const b = evaluateView(three, z3, z3, { reps: 300 }).end.withinSource;
    expect(b.sources[0]!.auroc).toBeCloseTo(a.sources[0]!.auroc!, 12);
    expect(b.sources[0]!.nPass).toBe(3 * a.sources[0]!.nPass);
    expect(b.sources[0]!.interval).toEqual(a.sources[0]!.interval);
  });
});
