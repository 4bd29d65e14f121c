/**
 * `train`'s end-of-run model (end-model.ts): the configuration the prefix model was chosen with, fitted on every row
 * mapped by the ECDF of all the runs trained on (end-ecdf.ts), with the default model and one per source calibrated
 * as the prefix models are (train.ts `fitModels`: the default map on leave-one-source-out end scores, each source's
 * on its task-fold ones). The tables of the features it reads go in the file with it.
 */
import { leaveSourceOut, taskFoldsOut } from './crossfit.js';
import { ecdfRuns, endTables } from './end-ecdf.js';
import type { FeatureName } from './features.js';
import type { FitConfig } from './fit.js';
import type { EndModel } from './model.js';
import type { ForecastRun } from './run.js';
import { fitModels, type ConfigSummary, type DefaultMapWeighting } from './train.js';

/** `chosen`: the prefix model's configuration as `trainForecast` reports it (its features are names of the catalogue). */
export function fitEndModel(runs: readonly ForecastRun[], chosen: ConfigSummary, k: number, seed: number, weighting: DefaultMapWeighting = 'runs'): EndModel {
  const config: FitConfig = { ...chosen, features: chosen.features as FeatureName[] };
  const mapped = ecdfRuns(runs, runs);
  const loso = leaveSourceOut(mapped, () => config);
  const folds = taskFoldsOut(mapped, config, k, seed);
  return { tables: endTables(runs, config.features), models: fitModels(mapped, config, loso, folds, weighting) };
}
