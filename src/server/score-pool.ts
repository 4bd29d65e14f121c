/**
 * Worker threads for HTTP scoring. A 27 MB `POST /v1/score` or a 1,024-item batch scored on the main thread
 * held every streaming session's event loop for seconds; here the body goes to a worker as raw bytes and only
 * the answer comes back. Workers ask for references (the store stays on the main thread); each reference
 * object gets a tag so a worker that holds it is not sent it again. A worker that dies fails its jobs with
 * `internal` and is replaced on the next job. With `size` 0, or when no worker can be started, jobs run inline.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Pta, Reference, TemporalPrior } from '../core/scorer-api.js';
import { SteplensError } from '../errors.js';
import { defaultAnalyzers } from '../syntax/index.js';
import type { AskedValue, FromWorker, PtaText, ToWorker } from './score-pool-messages.js';
import { ptaJsonInSlices } from '../store/pta-text.js';
import { jobError, runJob, type JobRequest, type JobResult } from './scoring-jobs.js';
import { workerEntry } from './worker-entry.js';

export interface ScorePoolOptions {
  /** Worker threads (0: score on the main thread). */
  size: number;
  /** Body bytes queued or in work over all workers; past it a job is refused `overloaded`. */
  maxQueuedBytes: number;
  // Function properties, not methods: handed on detached to `runJob`. `tenant`: whose requests (its own PTAs first, reference-scope.ts).
  reference: (task: string, tenant: string) => Promise<Reference>;
  prior: () => Promise<TemporalPrior>;
  /** A task's PTA whatever its references (the steps view draws the path over it). */
  pta: (task: string, tenant: string) => Promise<Pta | undefined>;
  log: Logger;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, (result: JobResult) => void>;
}

/** A PTA goes as its JSON text, built a slice a turn (score-pool-messages.ts, `PtaText`); other values as they are. */
export async function wireValue(value: AskedValue): Promise<AskedValue | PtaText> {
  if ('kind' in value && value.kind === 'pta') return { as: 'reference', text: await ptaJsonInSlices(value.pta) };
  if ('pta' in value && value.pta !== null) return { as: 'pta', text: await ptaJsonInSlices(value.pta) };
  return value;
}

/** The identity of "this task has no PTA" (a worker that holds it is not sent it again). */
const NO_PTA = {};

export class ScorePool {
  private readonly slots: Slot[] = [];
  private readonly tags = new WeakMap<object, number>();
  private nextTag = 0;
  private nextJob = 0;
  private queuedBytes = 0;
  private closed = false;
  private readonly entry = workerEntry('score-worker');

  constructor(private readonly options: ScorePoolOptions) {}

  /** Whether jobs run in worker threads (false: inline on the main thread). */
  get threaded(): boolean {
    return this.options.size > 0 && this.entry !== undefined;
  }

  /** Runs one job; never rejects. */
  async run(request: JobRequest): Promise<JobResult> {
    // Read once: a body sent to a worker is transferred, and a transferred buffer reads 0 bytes long afterwards. Read
    // again when the job ended, it gave nothing back, and once `maxQueuedBytes` of bodies had passed in all every
    // request was refused `overloaded`.
    const bytes = request.body.length;
    if (this.queuedBytes + bytes > this.options.maxQueuedBytes && this.queuedBytes > 0) {
      return jobError(new SteplensError('overloaded', `scoring queue holds ${this.queuedBytes} bytes of requests: try again later`));
    }
    this.queuedBytes += bytes;
    try {
      if (!this.threaded || this.closed) return await runJob(request, { reference: this.options.reference, prior: this.options.prior, pta: this.options.pta, analyzers: defaultAnalyzers() });
      return await this.inWorker(request);
    } finally {
      this.queuedBytes -= bytes;
    }
  }

  private inWorker(request: JobRequest): Promise<JobResult> {
    const slot = this.pick();
    const id = ++this.nextJob;
    return new Promise<JobResult>((resolve) => {
      slot.jobs.set(id, resolve);
      const message: ToWorker = { type: 'job', id, request };
      // The body's bytes move to the worker (no copy on this thread) when it owns its whole buffer.
      const own = request.body.byteOffset === 0 && request.body.byteLength === request.body.buffer.byteLength && request.body.buffer instanceof ArrayBuffer;
      slot.worker.postMessage(message, own ? [request.body.buffer as ArrayBuffer] : []);
    });
  }

  /** The worker with the fewest jobs, starting one while there are fewer than `size`. */
  private pick(): Slot {
    const idle = this.slots.find((s) => s.jobs.size === 0);
    if (idle) return idle;
    if (this.slots.length < this.options.size) return this.spawn();
    return this.slots.reduce((a, b) => (b.jobs.size < a.jobs.size ? b : a));
  }

  private spawn(): Slot {
    const entry = this.entry as { url: URL; execArgv: string[] };
    const worker = new Worker(entry.url, { execArgv: entry.execArgv });
    worker.unref();
    const slot: Slot = { worker, jobs: new Map() };
    this.slots.push(slot);
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'done') {
        slot.jobs.get(message.id)?.(message.result);
        slot.jobs.delete(message.id);
      } else void this.answer(worker, message);
    });
    const fail = (why: string): void => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      if (slot.jobs.size > 0) this.options.log.error({ jobs: slot.jobs.size, why }, 'scoring worker died');
      for (const done of slot.jobs.values()) done({ ok: false, code: 'internal', message: 'the scoring worker failed', detail: why });
      slot.jobs.clear();
    };
    worker.on('error', (error) => fail(error.stack ?? String(error)));
    worker.on('exit', (code) => fail(`exited with code ${code}`));
    return slot;
  }

  private tag(value: object): number {
    let t = this.tags.get(value);
    if (t === undefined) {
      t = ++this.nextTag;
      this.tags.set(value, t);
    }
    return t;
  }

  /** Answers a worker's request for a reference (or the prior, or a task's PTA), leaving out a value it already holds. */
  private async answer(worker: Worker, ask: Extract<FromWorker, { type: 'ask' }>): Promise<void> {
    let reply: ToWorker;
    try {
      const [value, identity] = await this.asked(ask);
      const tag = this.tag(identity);
      reply = tag === ask.have ? { type: 'answer', id: ask.id, tag } : { type: 'answer', id: ask.id, tag, value: await wireValue(value) };
    } catch (error) {
      const e = jobError(error);
      if (!e.ok && e.detail !== undefined) this.options.log.error({ err: error, task: ask.task }, 'reference for a scoring worker failed');
      reply = { type: 'answer', id: ask.id, tag: -1, error: e.ok ? { code: 'internal', message: 'no reference' } : { code: e.code, message: e.message } };
    }
    worker.postMessage(reply);
  }

  /** The value asked for and the object that tells whether it changed (a PTA, the prior; `NO_PTA` for none). */
  private async asked(ask: Extract<FromWorker, { type: 'ask' }>): Promise<[AskedValue, object]> {
    if (ask.task !== undefined && ask.pta === true) {
      const pta = (await this.options.pta(ask.task, ask.tenant)) ?? null;
      return [{ pta }, pta ?? NO_PTA];
    }
    if (ask.task !== undefined) {
      const ref = await this.options.reference(ask.task, ask.tenant);
      return [ref, ref.kind === 'pta' ? ref.pta : ref.prior];
    }
    const prior = await this.options.prior();
    return [prior, prior];
  }

  /** Stops the workers (jobs in work fail with `internal`). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
