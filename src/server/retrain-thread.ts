/**
 * The worker thread `serve --forecast-learn` fits its attempts in (retrain-off-loop.ts), started at the first fit and
 * kept for the next: a one-shot worker a fit cost the main thread 4-71 ms of its own (the `Worker` constructor, the
 * exit) and 0.4-1.1 s of wall time to load its modules at load 15, as much as the few hundred rows it was meant to
 * keep off the loop (T107). Kept, a fit costs the main thread the copy of its sessions and of the answer. The worker
 * is unref'd (an idle one keeps no process alive) and a failed one is dropped: the next fit starts another.
 */
import { Worker } from 'node:worker_threads';
import type { ForecastFile } from '../core/forecast/model.js';
import type { RetrainOptions, RetrainResult } from '../core/forecast/retrain.js';
import type { ForecastRun } from '../core/forecast/run.js';
import { workerEntry } from './worker-entry.js';

/** What the worker gets: a fit, numbered. */
export interface RetrainJob {
  id: number;
  runs: readonly ForecastRun[];
  current: ForecastFile;
  options: RetrainOptions;
}

/**
 * What the worker answers (`id`: the job's). `kept`: for each model of an accepted candidate, the index in
 * `current.models` of the model it is (the fit keeps a model it did not retrain as the same object), else -1. The
 * answer comes back as a copy, so the caller puts those objects back: the learner's cap and the holder's tenant views
 * tell a learned model from an inherited one by identity (a copy of every shared model would count as the tenant's
 * own and shadow later shared ones).
 */
export type RetrainAnswer = { id: number } & ({ ok: true; value: RetrainResult; kept: number[] } | { ok: false; message: string });

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

interface Waiting {
  worker: Worker;
  current: ForecastFile;
  resolve: (r: RetrainResult) => void;
  reject: (e: Error) => void;
}

/** A worker thread fitting retraining attempts, one after another, kept between them (see the file comment). */
export class RetrainThread {
  private worker: Worker | undefined;
  private ids = 0;
  private readonly waiting = new Map<number, Waiting>();
  /** Workers started (the first fit's, and one after each that failed). */
  started = 0;

  /** The fit of `runs` in the worker; undefined where no worker entry exists (the caller fits on the main thread). */
  fit(runs: readonly ForecastRun[], current: ForecastFile, options: RetrainOptions): Promise<RetrainResult> | undefined {
    const worker = this.worker ?? this.start();
    if (worker === undefined) return undefined;
    const id = ++this.ids;
    return new Promise<RetrainResult>((resolve, reject) => {
      this.waiting.set(id, { worker, current, resolve, reject });
      worker.postMessage({ id, runs, current, options } satisfies RetrainJob);
    });
  }

  /** Stops the worker; fits still waiting reject. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker !== undefined) await worker.terminate();
    this.fail(worker, new Error('the retraining worker was stopped before answering'));
  }

  private start(): Worker | undefined {
    const entry = workerEntry('retrain-worker');
    if (entry === undefined) return undefined;
    const worker = new Worker(entry.url, { execArgv: entry.execArgv });
    this.started += 1;
    worker.unref();
    worker.on('message', (answer: RetrainAnswer) => {
      const w = this.waiting.get(answer.id);
      if (w === undefined) return;
      this.waiting.delete(answer.id);
      if (answer.ok) w.resolve(withKept(answer.value, answer.kept, w.current));
      else w.reject(new Error(answer.message));
    });
    worker.once('error', (error) => this.fail(worker, error));
    worker.once('exit', (code) => this.fail(worker, new Error(`the retraining worker exited (code ${code}) before answering`)));
    this.worker = worker;
    return worker;
  }

  /** `worker` failed or stopped: every fit waiting on it rejects, and the next fit starts another. */
  private fail(worker: Worker | undefined, error: Error): void {
    if (worker === undefined) return;
    if (this.worker === worker) this.worker = undefined;
    for (const [id, w] of this.waiting) {
      if (w.worker !== worker) continue;
      this.waiting.delete(id);
      w.reject(error);
    }
  }
}
