/**
 * `POST /v1/rank`'s `"rankModel"` (docs/rank.md, "The end-of-run model on the server"): which of the server's forecast
 * models gives each trajectory its pPass, as `steplens rank --rank-model` chooses (cli/rank-model.ts). `end` scores a
 * finished run by the end-of-run model of the `--forecast` file (core/forecast/end-model.ts); session runs keep the
 * prefix model they were scored by live, and the answer says per run which model gave its pPass.
 */
import type { EndModel } from '../core/forecast/model.js';
import type { RankModel } from '../core/forecast/end-model.js';
import { SteplensError } from '../errors.js';
import type { RankResponse } from '../protocol/rank-bodies.js';
import type { JobForecast } from './score-request.js';

/** The end model a rank job scores its trajectories by (undefined: the prefix model), or the one refusal naming what is missing. */
export function rankEndModel(asked: RankModel | undefined, forecast: JobForecast | undefined): EndModel | undefined {
  if (asked === undefined) return undefined;
  // As the CLI refuses --rank-model without --forecast: a choice between models the server does not have.
  if (forecast === undefined)
    throw new SteplensError('no_forecast_model', `rankModel "${asked}": this server has no forecast model (serve --forecast FILE; for "end", a file trained with steplens train --end-model)`);
  if (asked === 'prefix') return undefined;
  if (forecast.end === undefined)
    throw new SteplensError(
      'no_forecast_model',
      `rankModel "end": the server's forecast model (version ${forecast.version}) has no end-of-run model (serve --forecast FILE with a file trained with steplens train --end-model; the bundled one has none)`,
    );
  return forecast.end;
}

/** The answer with the model asked for and, on each run with a pPass, the one that gave it (a session's: always prefix). */
export function withRankModel(answer: RankResponse, sessions: ReadonlySet<number>, asked: RankModel | undefined): RankResponse {
  if (asked === undefined) return answer;
  const runs = answer.runs.map((r) => (r.pPass === undefined ? r : { ...r, pPassModel: sessions.has(r.index) ? ('prefix' as const) : asked }));
  return { ...answer, rankModel: asked, runs };
}
