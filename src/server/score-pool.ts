/**
 * Worker threads for HTTP scoring. A 27 MB `POST /v1/score` or a 1,024-item batch scored on the main thread
 * held every streaming session's event loop for seconds; here the body goes to a worker as raw bytes and only
 * the answer comes back. Workers ask for references (the store stays on the main thread); each reference
 * object gets a tag so a worker that holds it is not sent it again. A worker that dies fails its jobs with
 * `internal` and is replaced on the next job. With `size` 0, or when no worker can be started, jobs run inline.
 *
 * Shared fairly between tenants (several tenants share one server): a tenant's requests queued or in work hold
 * at most `maxQueuedBytesPerTenant` of the queue's bytes (past it 429 `quota_exceeded`, its own refusal, while
 * others still get in), and jobs wait here, not in a worker's message queue, for their tenant's turn
 * (tenant-turns.ts): a worker holds at most two jobs of a tenant at a time, so another tenant's job goes to a
 * worker at once and runs beside them (a batch gives the worker back between items) instead of behind the backlog.
 * One tenant's four 64 MiB batches used to fill the whole queue: every other tenant's `POST /v1/score` was
 * refused `overloaded` or waited seconds behind them. The queue's last `reservedForNewTenants` bytes go only to a
 tenant with nothing in it: two tenants at their share no longer fill it for a third.
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Pta, Reference, TemporalPrior } from '../core/scorer-api.js';
import { SteplensError } from '../errors.js';
import { defaultAnalyzers } from '../syntax/index.js';
import type { AskedValue, FromWorker, PtaText, ToWorker } from './score-pool-messages.js';
import { ptaJsonInSlices } from '../store/pta-text.js';
import { jobError, runJob, type JobResult, type QueuedJob } from './scoring-jobs.js';
import { bodyBytesOf, discardBody } from './ported-body.js';
import { TenantTurns } from './tenant-turns.js';
import { workerEntry } from './worker-entry.js';

export interface ScorePoolOptions {
  /** Worker threads (0: score on the main thread). */
  size: number;
  /** Body bytes queued or in work over all workers; past it a job is refused `overloaded`. */
  maxQueuedBytes: number;
  /** Of those, the bytes one tenant's requests may hold; past it that tenant's job is refused `quota_exceeded`. Default: `maxQueuedBytes`. */
  maxQueuedBytesPerTenant?: number;
  /**
   * Of `maxQueuedBytes`, the bytes kept for tenants with nothing queued or in work (default 0): a tenant that holds
   * some may not take the queue into them, so two tenants at their share do not fill it for a third.
   */
  reservedForNewTenants?: number;
  // Function properties, not methods: handed on detached to `runJob`. `tenant`: whose requests (its own PTAs first, reference-scope.ts).
  reference: (task: string, tenant: string) => Promise<Reference>;
  prior: () => Promise<TemporalPrior>;
  /** A task's PTA whatever its references (the steps view draws the path over it). */
  pta: (task: string, tenant: string) => Promise<Pta | undefined>;
  log: Logger;
}

/** A job sent to a worker: whose it is, and where its answer goes. */
interface Running {
  tenant: string;
  done: (result: JobResult) => void;
}

interface Slot {
  worker: Worker;
  jobs: Map<number, Running>;
}

/** A job waiting for its tenant's turn at a worker. */
interface Waiting {
  request: QueuedJob;
  done: (result: JobResult) => void;
}

/** A PTA goes as its JSON text, built a slice a turn (score-pool-messages.ts, `PtaText`); other values as they are. */
export async function wireValue(value: AskedValue): Promise<AskedValue | PtaText> {
  if ('kind' in value && value.kind === 'pta') return { as: 'reference', text: await ptaJsonInSlices(value.pta) };
  if ('pta' in value && value.pta !== null) return { as: 'pta', text: await ptaJsonInSlices(value.pta) };
  return value;
}

/**
 * Jobs of one tenant a worker holds at once: one in work and one ready, so a lone tenant's worker does not wait
 * between jobs for the next one to cross threads, while another tenant's job still goes to the worker at once,
 * beside at most these two.
 */
export const JOBS_PER_TENANT_PER_WORKER = 2;

/** The identity of "this task has no PTA" (a worker that holds it is not sent it again). */
const NO_PTA = {};

export class ScorePool {
  private readonly slots: Slot[] = [];
  private readonly tags = new WeakMap<object, number>();
  private nextTag = 0;
  private nextJob = 0;
  private queuedBytes = 0;
  /** Bytes of each tenant's requests queued or in work (tenants with none are left out). */
  private readonly tenantBytes = new Map<string, number>();
  /** Jobs no worker has been sent yet, per tenant (only with workers). */
  private readonly turns = new TenantTurns<Waiting>();
  private closed = false;
  private readonly entry = workerEntry('score-worker');

  constructor(private readonly options: ScorePoolOptions) {}

  /** Whether jobs run in worker threads (false: inline on the main thread). */
  get threaded(): boolean {
    return this.options.size > 0 && this.entry !== undefined;
  }

  /** Runs one job; never rejects. */
  async run(request: QueuedJob): Promise<JobResult> {
    // Read once: a body sent to a worker is transferred, and a transferred buffer reads 0 bytes long afterwards. Read
    // again when the job ended, it gave nothing back, and once `maxQueuedBytes` of bodies had passed in all every
    // request was refused `overloaded`.
    const bytes = request.body.length;
    const tenant = request.tenant;
    const mine = this.tenantBytes.get(tenant) ?? 0;
    const share = this.options.maxQueuedBytesPerTenant ?? this.options.maxQueuedBytes;
    // The tenant's own share first: a tenant past it is told so, and does not take the room left to the others.
    if (mine + bytes > share && mine > 0) {
      discardBody(request.body);
      return jobError(new SteplensError('quota_exceeded', `this tenant's scoring requests queued or in work hold ${mine} bytes, its share of the queue is ${share} bytes: wait for their answers`));
    }
    if (this.queuedBytes + bytes > this.options.maxQueuedBytes && this.queuedBytes > 0) {
      discardBody(request.body);
      return jobError(new SteplensError('overloaded', `scoring queue holds ${this.queuedBytes} bytes of requests: try again later`));
    }
    const reserved = this.options.reservedForNewTenants ?? 0;
    if (mine > 0 && reserved > 0 && this.queuedBytes + bytes > this.options.maxQueuedBytes - reserved) {
      discardBody(request.body);
      return jobError(
        new SteplensError('overloaded', `scoring queue holds ${this.queuedBytes} bytes of requests, and its last ${reserved} bytes are kept for tenants with none queued: try again later`),
      );
    }
    this.queuedBytes += bytes;
    this.tenantBytes.set(tenant, mine + bytes);
    try {
      if (!this.threaded || this.closed)
        return await runJob({ ...request, body: bodyBytesOf(request.body) }, { reference: this.options.reference, prior: this.options.prior, pta: this.options.pta, analyzers: defaultAnalyzers() });
      return await new Promise<JobResult>((done) => {
        this.turns.push(tenant, { request, done });
        this.dispatch();
      });
    } finally {
      this.queuedBytes -= bytes;
      const left = (this.tenantBytes.get(tenant) ?? bytes) - bytes;
      if (left > 0) this.tenantBytes.set(tenant, left);
      else this.tenantBytes.delete(tenant);
    }
  }

  /** Sends waiting jobs to workers, tenants in turn, while a worker is free for one (see {@link slotFor}). */
  private dispatch(): void {
    try {
      for (let sent = true; sent && this.turns.size > 0 && !this.closed;) {
        sent = false;
        for (const tenant of this.turns.tenants()) {
          const slot = this.slotFor(tenant);
          if (slot === undefined) continue;
          this.send(slot, this.turns.take(tenant)!); // tenants() lists only tenants with a job waiting
          sent = true;
        }
      }
    } catch (error) {
      // A worker that cannot be started (called from a worker's events too, where a throw would end the process).
      this.options.log.error({ err: error }, 'scoring worker could not be started');
      if (this.slots.length === 0) for (const job of this.turns.drain()) job.done({ ok: false, code: 'internal', message: 'the scoring worker could not be started', detail: String(error) });
    }
  }

  private send(slot: Slot, job: Waiting): void {
    const { request, done } = job;
    const id = ++this.nextJob;
    slot.jobs.set(id, { tenant: request.tenant, done });
    const message: ToWorker = { type: 'job', id, request };
    // The body's bytes move to the worker (no copy on this thread) when it owns its whole buffer; a ported body's channel moves with its queued chunks.
    const body = request.body;
    if (!(body instanceof Uint8Array)) return slot.worker.postMessage(message, [body.port]);
    const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength && body.buffer instanceof ArrayBuffer;
    slot.worker.postMessage(message, own ? [body.buffer] : []);
  }

  /**
   * The worker for `tenant`'s next job, or undefined while it must wait: of the workers holding fewer than
   * {@link JOBS_PER_TENANT_PER_WORKER} of its jobs,
   * an idle one, a new one while there are fewer than `size`, else the one with the fewest jobs.
   */
  private slotFor(tenant: string): Slot | undefined {
    const open = this.slots.filter((s) => [...s.jobs.values()].filter((j) => j.tenant === tenant).length < JOBS_PER_TENANT_PER_WORKER);
    const idle = open.find((s) => s.jobs.size === 0);
    if (idle) return idle;
    if (this.slots.length < this.options.size) return this.spawn();
    return open.reduce<Slot | undefined>((a, b) => (a === undefined || b.jobs.size < a.jobs.size ? b : a), undefined);
  }

  private spawn(): Slot {
    const entry = this.entry as { url: URL; execArgv: string[] };
    const worker = new Worker(entry.url, { execArgv: entry.execArgv });
    worker.unref();
    const slot: Slot = { worker, jobs: new Map() };
    this.slots.push(slot);
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'done') {
        slot.jobs.get(message.id)?.done(message.result);
        slot.jobs.delete(message.id);
        this.dispatch();
      } else void this.answer(worker, message);
    });
    const fail = (why: string): void => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      if (slot.jobs.size > 0) this.options.log.error({ jobs: slot.jobs.size, why }, 'scoring worker died');
      for (const job of slot.jobs.values()) job.done({ ok: false, code: 'internal', message: 'the scoring worker failed', detail: why });
      slot.jobs.clear();
      // Jobs still waiting go to the other workers, or a new one.
      this.dispatch();
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
    for (const job of this.turns.drain()) {
      discardBody(job.request.body);
      job.done({ ok: false, code: 'overloaded', message: 'the server is shutting down' });
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
