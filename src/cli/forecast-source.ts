/**
 * `--agent A` / `--model M` of `score` and `rank`: the run's source (agent + model) for choosing its forecast model,
 * as `POST /v1/score`'s `agent` and `model` are. A log that names no model (SWE-agent 0.x) or names its harness
 * differently otherwise gets the default model, while `report --manifest` names the source and gets its own
 * (review s42: pPass 0.037 against 0.007 for one run).
 */
import { selectModel, type ForecastFile, type ForecastModel } from '../core/forecast/model.js';
import type { TrajectoryMeta } from '../formats/types.js';
import { SteplensError } from '../errors.js';

export const SOURCE_OPTIONS = { agent: { type: 'string' }, model: { type: 'string' } } as const;

export interface ForecastSource {
  agent?: string;
  model?: string;
}

/** The flags checked: not empty, and only with `--forecast` (they choose nothing else). */
export function forecastSource(values: { agent?: string | undefined; model?: string | undefined; forecast?: string | undefined }): ForecastSource {
  for (const flag of ['agent', 'model'] as const) {
    const v = values[flag];
    if (v === undefined) continue;
    if (v.trim() === '') throw new SteplensError('usage', `--${flag} must not be empty`);
    if (values.forecast === undefined) throw new SteplensError('usage', `--${flag} chooses the forecast model of the run's source: give --forecast too`);
  }
  return { ...(values.agent !== undefined ? { agent: values.agent.trim() } : {}), ...(values.model !== undefined ? { model: values.model.trim() } : {}) };
}

/** The forecast model of a run: the flags' source where given, else the log's own agent and model. */
export function runForecast(forecasts: ForecastFile | undefined, source: ForecastSource, meta: TrajectoryMeta): ForecastModel | undefined {
  return forecasts !== undefined ? selectModel(forecasts, source.agent ?? meta.agent, source.model ?? meta.model) : undefined;
}
