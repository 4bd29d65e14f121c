/**
 * Audit: `train` printed the pPass AUROC after t = 10, 20, 40 steps and the reference-free composite's table as bare
 * points, where every other AUROC it prints has its 95 % interval. Both are now drawn as the end-of-run figures are
 * (core/stats separation, tasks resampled), and printed `0.xxx [lo, hi]` (`[-]` below the resampling floor). So are
 * the "each signal alone" table beneath the reference-free one and the PTA-mode table (calib14).
 */
import { describe, expect, it } from 'vitest';
import { forecastText } from '../../src/cli/train-forecast-text.js';
import { priorWeightsText, ptaWeightsText } from '../../src/cli/train-weights-text.js';
import { DEFAULT_CONFIG } from '../../src/core/config.js';
import { FEATURE_COUNT, FEATURE_NAMES, type FeatureName } from '../../src/core/forecast/features.js';
import { withPriorIntervals } from '../../src/core/forecast/prior-intervals.js';
import { choosePriorWeights, priorGrid, type PriorSample } from '../../src/core/forecast/prior-weights.js';
import { withPtaIntervals } from '../../src/core/forecast/pta-intervals.js';
import { choosePtaWeights, ptaGrid, type PtaSample } from '../../src/core/forecast/pta-weights.js';
import type { ForecastRun } from '../../src/core/forecast/run.js';
import { trainForecast } from '../../src/core/forecast/train.js';
import { rng } from './rng.js';

const col = (f: FeatureName) => FEATURE_NAMES.indexOf(f);
const AT = [10, 20, 40];
const IV = String.raw`\d\.\d{3} \[\d\.\d\d, \d\.\d\d\]`;
const line = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start));

/** Runs of 40 steps with a feature row at steps 10, 20 and 40; `sourceEdited` carries some signal. */
function source(agent: string, pass: number, fail: number, seed: number): ForecastRun[] {
  const r = rng(seed);
  return Array.from({ length: pass + fail }, (_, i) => {
    const passed = i < pass;
    const rows = new Float64Array(FEATURE_COUNT * AT.length);
    AT.forEach((t, k) => {
      rows[k * FEATURE_COUNT + col('sourceEdited')] = r() < (passed ? 0.8 : 0.3) ? 1 : 0;
      rows[k * FEATURE_COUNT + col('shareE')] = r();
      rows[k * FEATURE_COUNT + col('logSteps')] = Math.log1p(t);
    });
    return { id: `${agent}${i}`, task: `t${i % 9}`, agent, model: 'm', passed, length: 40, at: Int32Array.from(AT), rows };
  });
}

/** Reference-free samples of one source, spread over 12 tasks; passing runs shorter and more often edited. */
function prior(name: string, n: number, seed: number): PriorSample[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const passed = i % 3 === 0;
    const edit = passed ? (r() < 0.9 ? 1 : 0) : r() < 0.5 ? 1 : 0;
    return { source: name, task: `${name}-t${i % 12}`, passed, coh: r(), temp: r(), focus: r(), verify: r() < 0.5 ? 1 : 0, edit, settle: 0.5, steps: Math.round(10 + 50 * r() + (passed ? 0 : 20)) };
  });
}

/** PTA-mode samples of one source over 12 tasks; passing runs cover more of their reference. */
function pta(name: string, n: number, seed: number): PtaSample[] {
  const r = rng(seed);
  return Array.from({ length: n }, (_, i) => {
    const passed = i % 3 === 0;
    return { source: name, task: `${name}-t${i % 12}`, passed, struct: r(), cov: r() + (passed ? 0.3 : 0), coh: r(), temp: r(), steps: Math.round(10 + 50 * r() + (passed ? 0 : 20)) };
  });
}

describe('train prints an interval beside', () => {
  it('each pPass AUROC after t = 10, 20, 40 steps, per source and their mean', () => {
    const r = trainForecast([...source('A', 12, 12, 1), ...source('B', 12, 12, 2), ...source('C', 12, 12, 3)], { folds: 3, seed: 1, reps: 200 });
    const text = forecastText(r.evaluation, r.models);
    const table = text.slice(text.indexOf('leave one source out, per source'), text.indexOf('calibration, leave one source out'));
    for (const s of ['A + m', 'B + m', 'C + m']) {
      // pPass at end, then t = 10, 20, 40: each `0.xxx [lo, hi]`, the t columns with n passing / failing.
      expect(line(table, s), table).toMatch(new RegExp(`^${s.replace('+', '\\+')} +12 / 12 +${IV} +(${IV} \\(12/12\\) +){3}`));
    }
    expect(line(table, 'mean within source (3 sources)')).toMatch(new RegExp(`^mean within source \\(3 sources\\) +${IV} +(${IV} \\(3 sources\\) +){3}`));
    const at10 = r.evaluation.leaveSourceOut.at['10']!.withinSource;
    expect(at10.interval).not.toBeNull();
    expect(at10.sources.every((s) => s.interval !== null)).toBe(true);
  });

  it("each AUROC of the reference-free composite's leave-one-source-out table, and their mean", () => {
    const samples = [...prior('A', 60, 1), ...prior('B', 60, 2), ...prior('C', 60, 3)];
    // A coarse grid keeps the test quick; the table is the same.
    const report = withPriorIntervals(choosePriorWeights(samples, 20, priorGrid([15], 0.5)), samples, { seed: 1, reps: 200 });
    const text = priorWeightsText(report);
    expect(text).toContain('AUROC within each source with its 95 % bootstrap interval, tasks resampled;');
    for (const s of ['A', 'B', 'C']) expect(line(text, `${s} `), text).toMatch(new RegExp(`^${s} +60 \\(20\\) +(${IV} +){4}[a-z]+ \\d`));
    expect(line(text, 'mean (3 sources)'), text).toMatch(new RegExp(`^mean \\(3 sources\\) +(${IV} +){3}${IV} *$`));
  });

  it('each AUROC of the "each signal alone" table beneath the reference-free one, and their mean', () => {
    const samples = [...prior('A', 60, 1), ...prior('B', 60, 2), ...prior('C', 60, 3)];
    const report = withPriorIntervals(choosePriorWeights(samples, 20, priorGrid([15], 0.5)), samples, { seed: 1, reps: 200 });
    const text = priorWeightsText(report);
    const single = text.slice(text.indexOf('each signal alone'));
    expect(single).toMatch(/^each signal alone \(AUROC within each source with its 95 % bootstrap interval, tasks resampled; brevity alone is length alone\):/);
    // coh, temp, focus, verify, edit, settle, length: seven figures per row. settle is one value for every run: 0.500
    // by construction, and since audit21 without the zero-width interval every draw gave it (`[0.50, 0.50]`).
    for (const s of ['A', 'B', 'C']) expect(line(single, `${s} `), single).toMatch(new RegExp(`^${s} +(${IV} +){5}0\\.500 \\[-\\] +${IV} *$`));
    expect(line(single, 'mean (3 sources)'), single).toMatch(new RegExp(`^mean \\(3 sources\\) +(${IV} +){5}0\\.500 \\[-\\] +${IV} *$`));
    // The single-signal intervals are each signal's own: edit's bounds differ from coh's on the same runs.
    expect(report.intervals!.bySource.A!.edit).not.toEqual(report.intervals!.bySource.A!.coh);
  });

  it("each AUROC of the PTA-mode composite's leave-one-source-out table, each signal alone, and their mean", () => {
    const samples = [...pta('A', 60, 1), ...pta('B', 60, 2), ...pta('C', 60, 3)];
    const report = withPtaIntervals(choosePtaWeights(samples, DEFAULT_CONFIG.weights, 20, ptaGrid(0.25)), samples, DEFAULT_CONFIG.weights, { seed: 1, reps: 200 });
    const text = ptaWeightsText(report, DEFAULT_CONFIG.weights);
    expect(text).toContain('AUROC within each source with its 95 % bootstrap interval, tasks resampled;');
    // held out, in force, chosen on all, struct, cov, coh, temp, length: eight figures, then the weights chosen without it.
    for (const s of ['A', 'B', 'C']) expect(line(text, `${s} `), text).toMatch(new RegExp(`^${s} +60 \\(20\\) +(${IV} +){8}[a-z]+ \\d`));
    expect(line(text, 'mean (3 sources)'), text).toMatch(new RegExp(`^mean \\(3 sources\\) +(${IV} +){7}${IV} *$`));
  });
});
