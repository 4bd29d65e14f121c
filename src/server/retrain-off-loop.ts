/**
 * One retraining attempt of `serve --forecast-learn`, off the event loop every tenant's sockets share. Fitting is
 * synchronous core work: 5,000 kept sessions of one source (the default bound, which one tenant can fill in the
 * `tenant` scope) took 1.2 s on the main thread, a stall of every session once per attempt. Its cost follows the
 * rows fitted (a session's sampled prefixes: 2 for a 2-step session, 25 from 1,001 steps), not the sessions: 499
 * sessions of 1,001 steps held the loop 1.7 s of CPU (T103). From {@link OFF_LOOP_FROM_ROWS} rows the fit runs in a
 * one-shot worker thread (the sessions are copied to it, tens of ms for 5,000); below it, or where no worker entry
 * exists, on the main thread (a few hundred rows fit in tens of ms, less than a worker's start). The result is the
 * same either way: the fit is deterministic.
 */
import { Worker } from 'node:worker_threads';
import type { ForecastFile } from '../core/forecast/model.js';
import { retrainForecast, type RetrainOptions, type RetrainResult } from '../core/forecast/retrain.js';
import type { ForecastRun } from '../core/forecast/run.js';
import { workerEntry } from './worker-entry.js';

/** Rows (sampled prefixes of the sessions together) from which an attempt is fitted in a worker thread. */
export const OFF_LOOP_FROM_ROWS = 512;

/** The rows a fit over `runs` reads: each session's sampled prefixes. */
export function rowsOf(runs: readonly ForecastRun[]): number {
  let rows = 0;
  for (const r of runs) rows += r.at.length;
  return rows;
}

/** What the worker gets. */
export interface RetrainJob {
  runs: readonly ForecastRun[];
  current: ForecastFile;
  options: RetrainOptions;
}

/**
 * What the worker answers. `kept`: for each model of an accepted candidate, the index in `current.models` of the model
 * it is (the fit keeps a model it did not retrain as the same object), else -1. The answer comes back as a copy, so
 * the caller puts those objects back: the learner's cap and the holder's tenant views tell a learned model from an
 * inherited one by identity (a copy of every shared model would count as the tenant's own and shadow later shared ones).
 */
export type RetrainAnswer = { ok: true; value: RetrainResult; kept: number[] } | { ok: false; message: string };

/** The index in `current.models` of each model of `result`'s candidate that is one of them (-1: a model it made). */
export function keptModels(result: RetrainResult, current: ForecastFile): number[] {
  return result.kind === 'accepted' ? result.candidate.models.map((m) => current.models.indexOf(m)) : [];
}

/** `result` (the worker's copy) with the models it kept of `current` as `current`'s own objects again. */
function withKept(result: RetrainResult, kept: readonly number[], current: ForecastFile): RetrainResult {
  if (result.kind !== 'accepted') return result;
  const models = result.candidate.models.map((m, i) => {
    const k = kept[i] ?? -1;
    return k >= 0 ? (current.models[k] ?? m) : m;
  });
  return { ...result, candidate: { ...result.candidate, models } };
}

/** {@link retrainForecast}, in a worker thread when `runs` hold `fromRows` rows or more. Rejects if the fit or the worker fails. */
export async function retrainOffLoop(runs: readonly ForecastRun[], current: ForecastFile, options: RetrainOptions, fromRows = OFF_LOOP_FROM_ROWS): Promise<RetrainResult> {
  const entry = rowsOf(runs) >= fromRows ? workerEntry('retrain-worker') : undefined;
  if (entry === undefined) return retrainForecast(runs, current, options);
  const job: RetrainJob = { runs, current, options };
  return new Promise<RetrainResult>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    const worker = new Worker(entry.url, { execArgv: entry.execArgv, workerData: job });
    worker.once('message', (answer: RetrainAnswer) => settle(() => (answer.ok ? resolve(withKept(answer.value, answer.kept, current)) : reject(new Error(answer.message)))));
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`the retraining worker exited (code ${code}) before answering`))));
  });
}
