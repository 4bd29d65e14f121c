/**
 * What the two benches of `serve --forecast-learn` on the calibration runs share (calibration-retrain.ts,
 * calibration-learn-order.ts): the default model a source never saw, a session's end pPass under a file, the
 * source's runs in a random order of its tasks, and an AUROC of end pPass.
 */
import { FEATURE_COUNT } from '../src/core/forecast/features.js';
import { fitRanker, rankerModel } from '../src/core/forecast/fit.js';
import { compileModel, pPassOf } from '../src/core/forecast/forecaster.js';
import { FORECAST_FORMAT, FORECAST_SCHEMA, selectModel, type ForecastFile } from '../src/core/forecast/model.js';
import { fitPlatt, IDENTITY_PLATT } from '../src/core/forecast/platt.js';
import type { ForecastRun } from '../src/core/forecast/run.js';
import { auroc } from '../src/core/stats/auroc.js';
import { shuffleInPlace, type Random } from '../src/core/stats/rng.js';
import type { CalibrationRuns } from './calibration-runs.js';

/** The default model fitted without source `s` (its features chosen without it, its pooled map from the other sources). */
export function defaultFileWithout({ runs, sel, z, src }: CalibrationRuns, s: string): ForecastFile {
  const config = sel.candidates[sel.chosenWithout[s] ?? sel.candidates.indexOf(sel.chosen)]!.config;
  const train = runs.filter((_, i) => src[i] !== s);
  const pooled = fitPlatt(
    runs.flatMap((r, i) => (z[i] === null || src[i] === s ? [] : [{ z: z[i]!, pass: r.passed }])),
    IDENTITY_PLATT,
    0,
  );
  const model = rankerModel(fitRanker(train, config), undefined, pooled);
  return { format: FORECAST_FORMAT, schema: FORECAST_SCHEMA, version: 1, createdAt: '2026-12-02T00:00:00.000Z', models: [model] };
}

/** A session's pPass at its end under the model `file` gives its source. */
export const endP = (file: ForecastFile, r: ForecastRun): number => pPassOf(compileModel(selectModel(file, r.agent, r.model)!), r.rows, (r.at.length - 1) * FEATURE_COUNT);

/** The source's runs in a random order of its tasks (a task's runs together), as calibration-online orders them. */
export const taskOrder = (rs: readonly ForecastRun[], random: Random): ForecastRun[] =>
  shuffleInPlace([...new Set(rs.map((r) => r.task))].sort(), random).flatMap((t) =>
    shuffleInPlace(
      rs.filter((r) => r.task === t),
      random,
    ),
  );

/** AUROC of `p` (one value a run of `rs`), passing runs positive; null with one class. */
export const aurocOf = (rs: readonly ForecastRun[], p: readonly number[]): number | null =>
  auroc(
    p.filter((_, i) => rs[i]!.passed),
    p.filter((_, i) => !rs[i]!.passed),
  )?.auroc ?? null;
