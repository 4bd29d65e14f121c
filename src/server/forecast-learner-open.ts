/**
 * The forecast learner a server starts with (`--forecast-learn` beside `--forecast`), its bounds defaulting to the
 * server's limits, and what an earlier run learned from the same --forecast file put back in force first.
 */
import type { Logger } from 'pino';
import type { ForecastLearnOptions } from './forecast-learn-options.js';
import { ForecastLearner } from './forecast-learner.js';
import { restoreVersions } from './forecast-versions.js';
import type { ResolvedOptions } from './options.js';

/** None without both a forecast and learning options. */
export async function openForecastLearner(resolved: ResolvedOptions, learn: ForecastLearnOptions | undefined, log: Logger): Promise<ForecastLearner | undefined> {
  const holder = resolved.forecast;
  if (holder === undefined || learn === undefined) return undefined;
  const learner = new ForecastLearner(
    holder,
    {
      ...learn,
      scope: resolved.forecastLearnScope,
      maxSources: learn.maxSources ?? resolved.limits.forecastSources,
      versionsKept: learn.versionsKept ?? resolved.limits.forecastVersions,
      attemptsKept: learn.attemptsKept ?? resolved.limits.forecastAttempts,
    },
    log,
  );
  // The newest version learned from that file (forecast-versions.ts), then the sessions and attempts it had kept
  // (forecast-runs.ts, forecast-attempts.ts), so the next attempt sees what it would have seen without the restart.
  if (learn.dir !== undefined) {
    await restoreVersions(holder, { dir: learn.dir, tenants: learner.scope === 'tenant', fresh: learn.fresh === true }, log);
    await learner.restore(learn.fresh === true);
  }
  return learner;
}
