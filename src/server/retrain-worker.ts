/**
 * A one-shot worker thread (retrain-off-loop.ts): fits one retraining attempt of `serve --forecast-learn` off the
 * main event loop and posts its result back. The job comes as `workerData` (structured clone: plain objects and
 * typed arrays), the answer is `{ ok: true, value }` or `{ ok: false, message }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { retrainForecast } from '../core/forecast/retrain.js';
import { keptModels, type RetrainJob, type RetrainAnswer } from './retrain-off-loop.js';

const port = parentPort;
if (port === null) throw new Error('retrain-worker.ts runs as a worker thread');
const job = workerData as RetrainJob;
let answer: RetrainAnswer;
try {
  const value = retrainForecast(job.runs, job.current, job.options);
  answer = { ok: true, value, kept: keptModels(value, job.current) };
} catch (error) {
  answer = { ok: false, message: error instanceof Error ? error.message : String(error) };
}
port.postMessage(answer);
