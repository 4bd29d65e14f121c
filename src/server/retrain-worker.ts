/**
 * The worker thread of retrain-thread.ts: fits retraining attempts of `serve --forecast-learn` off the main event
 * loop, one message at a time, and posts each result back. A job comes as a message (structured clone: plain objects
 * and typed arrays), the answer is `{ id, ok: true, value, kept }` or `{ id, ok: false, message }`.
 */
import { parentPort } from 'node:worker_threads';
import { retrainForecast } from '../core/forecast/retrain.js';
import { keptModels, type RetrainAnswer, type RetrainJob } from './retrain-thread.js';

const port = parentPort;
if (port === null) throw new Error('retrain-worker.ts runs as a worker thread');
port.on('message', (job: RetrainJob) => {
  let answer: RetrainAnswer;
  try {
    const value = retrainForecast(job.runs, job.current, job.options);
    answer = { id: job.id, ok: true, value, kept: keptModels(value, job.current) };
  } catch (error) {
    answer = { id: job.id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(answer);
});
