/**
 * One retraining attempt of `serve --forecast-learn`, off the event loop every tenant's sockets share. Fitting is
 * synchronous core work: 5,000 kept sessions of one source (the default bound, which one tenant can fill in the
 * `tenant` scope) took 1.2 s on the main thread, a stall of every session once per attempt. Its cost follows the
 * rows fitted (a session's sampled prefixes: 2 for a 2-step session, 25 from 1,001 steps), not the sessions: 499
 * sessions of 1,001 steps held the loop 1.7 s of CPU (T103), and the 100-511 rows of 12-51 real sessions still held
 * it 4-43 ms (T107; 121-220 ms before the JIT warms up): so every fit that reads a row ({@link OFF_LOOP_FROM_ROWS}) runs
 * in a worker thread, the learner's, kept between attempts (retrain-thread.ts; the sessions are copied to it, tens
 * of ms for 5,000); only where no worker entry exists on the main thread. The result is the same either way: the fit is deterministic.
 */
import type { ForecastFile } from '../core/forecast/model.js';
import { retrainForecast, type RetrainOptions, type RetrainResult } from '../core/forecast/retrain.js';
import type { ForecastRun } from '../core/forecast/run.js';
import { RetrainThread } from './retrain-thread.js';

/** Rows (sampled prefixes of the sessions together) from which an attempt is fitted in a worker thread: any (was 512, T107). */
export const OFF_LOOP_FROM_ROWS = 1;

/** The rows a fit over `runs` reads: each session's sampled prefixes. */
export function rowsOf(runs: readonly ForecastRun[]): number {
  let rows = 0;
  for (const r of runs) rows += r.at.length;
  return rows;
}

/**
 * {@link retrainForecast}, in a worker thread when `runs` hold `fromRows` rows or more: `thread`'s, kept for the next
 * fit (retrain-thread.ts), else one started for this fit and stopped after it. Rejects if the fit or the worker fails.
 */
export async function retrainOffLoop(runs: readonly ForecastRun[], current: ForecastFile, options: RetrainOptions, fromRows = OFF_LOOP_FROM_ROWS, thread?: RetrainThread): Promise<RetrainResult> {
  if (rowsOf(runs) < fromRows) return retrainForecast(runs, current, options);
  const own = thread ?? new RetrainThread();
  try {
    return await (own.fit(runs, current, options) ?? retrainForecast(runs, current, options));
  } finally {
    if (thread === undefined) void own.close();
  }
}
