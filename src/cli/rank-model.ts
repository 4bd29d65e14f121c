/**
 * `rank --rank-model end|prefix` (and `report`'s): which model gives a FINISHED run its pPass. `prefix`
 * (the default): the prefix model a live session is scored by, read at the last step. `end`: the end-of-run model
 * `train --end-model` writes beside it (core/forecast/end-model.ts; docs/forecast.md "End-of-run model"), which did not clear
 * the rule to be the default. Live sessions are always scored by the prefix model.
 */
import { createEndScorer, type EndScorer, type RankModel } from '../core/forecast/end-model.js';
import type { ForecastFile } from '../core/forecast/model.js';
import type { TrajectoryMeta } from '../formats/types.js';
import { SteplensError } from '../errors.js';
import type { ForecastSource } from './forecast-source.js';

export const RANK_MODEL_OPTION = { 'rank-model': { type: 'string' } } as const;
export const RANK_MODEL_USAGE =
  '  --rank-model M  the model that gives each finished run its pPass: prefix (the default: the model live sessions are\n' +
  "               scored by, at the last step) or end (the file's end-of-run model: features mapped by their ECDF among the\n" +
  '               runs trained on; docs/forecast.md "End-of-run model")\n';

/** The flag checked: a known model, only with --forecast, and `end` only from a file that has one. */
export function rankModelOption(value: string | undefined, forecastFlag: string | undefined, file: ForecastFile | undefined): RankModel {
  if (value === undefined) return 'prefix';
  if (value !== 'prefix' && value !== 'end') throw new SteplensError('usage', `--rank-model ${value}: expected prefix or end`);
  if (forecastFlag === undefined) throw new SteplensError('usage', '--rank-model chooses which forecast model scores finished runs: give --forecast too');
  if (value === 'end' && file !== undefined && file.end === undefined)
    throw new SteplensError('bad_input', `--rank-model end: ${forecastFlag} has no end-of-run model (train fits one with --end-model)`);
  return value;
}

/** The end scorer of a run (its source as runForecast chooses it), or undefined under the prefix model. */
export function endScorerOf(file: ForecastFile | undefined, which: RankModel, source: ForecastSource, meta: TrajectoryMeta): EndScorer | undefined {
  if (which !== 'end' || file?.end === undefined) return undefined;
  return createEndScorer(file.end, source.agent ?? meta.agent, source.model ?? meta.model);
}
