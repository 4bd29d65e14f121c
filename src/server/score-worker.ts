/**
 * A scoring worker thread (see score-pool.ts): runs HTTP scoring jobs off the main event loop. It asks the
 * main thread for each reference it needs (the store lives there) and keeps the last ones it got, tagged,
 * so an unchanged PTA is not copied again.
 */
import { parentPort } from 'node:worker_threads';
import type { Pta, Reference, TemporalPrior } from '../core/scorer-api.js';
import { SteplensError } from '../errors.js';
import { defaultAnalyzers } from '../syntax/index.js';
import { jobError, runJob, type JobRequest } from './scoring-jobs.js';
import { bodyBytesInSlices } from './ported-body.js';
import type { Asked, AskedValue, FromWorker, PtaText, ToWorker } from './score-pool-messages.js';
import { ptaFromJson } from '../core/pta/index.js';
import { keptReferences } from './worker-references.js';

const port = parentPort;
if (port === null) throw new Error('score-worker.ts runs as a worker thread');

/** References kept between jobs (task, or the prior) → the tag the main thread gave it. */
const kept = keptReferences();
const asks = new Map<number, (reply: Extract<ToWorker, { type: 'answer' }>) => void>();
let nextAsk = 0;

async function ask(key: string, what: Asked): Promise<AskedValue> {
  const id = ++nextAsk;
  const have = kept.get(key);
  const reply = await new Promise<Extract<ToWorker, { type: 'answer' }>>((resolve) => {
    asks.set(id, resolve);
    const message: FromWorker = { type: 'ask', id, ...what, ...(have ? { have: have.tag } : {}) };
    port?.postMessage(message);
  });
  if (reply.error) throw new SteplensError(reply.error.code, reply.error.message);
  const value = reply.value !== undefined ? fromWire(reply.value) : have?.value;
  if (value === undefined) throw new Error(`score-worker: no value for ${key}`);
  const chars = reply.value !== undefined && 'text' in reply.value ? reply.value.text.length : (have?.chars ?? 0);
  kept.set(key, { tag: reply.tag, value, chars });
  return value;
}

/** A value as the main thread sent it: a PTA's JSON text parsed here (score-pool-messages.ts, `PtaText`). */
function fromWire(value: AskedValue | PtaText): AskedValue {
  if (!('text' in value)) return value;
  const parsed = ptaFromJson(value.text);
  if (!parsed.ok) throw new Error(`score-worker: the PTA sent is unreadable: ${parsed.error}`);
  return value.as === 'reference' ? { kind: 'pta', pta: parsed.value } : { pta: parsed.value };
}

const deps = {
  analyzers: defaultAnalyzers(),
  // Kept per tenant too: in tenant reference scope two tenants' references of one task differ.
  reference: (task: string, tenant: string) => ask(`task\0${tenant}\0${task}`, { task, tenant }) as Promise<Reference>,
  prior: () => ask('prior', { prior: true }) as Promise<TemporalPrior>,
  pta: async (task: string, tenant: string) => ((await ask(`pta\0${tenant}\0${task}`, { task, tenant, pta: true })) as { pta: Pta | null }).pta ?? undefined,
};

port.on('message', (message: ToWorker) => {
  if (message.type === 'answer') {
    asks.get(message.id)?.(message);
    asks.delete(message.id);
    return;
  }
  void job(message);
});

/** Runs one job and posts its result. A ported body's chunks are joined here, off the main thread, in slices (ported-body.ts). */
async function job(message: Extract<ToWorker, { type: 'job' }>): Promise<void> {
  let request: JobRequest;
  try {
    request = { ...message.request, body: await bodyBytesInSlices(message.request.body) };
  } catch (error) {
    const done: FromWorker = { type: 'done', id: message.id, result: jobError(error) };
    return port?.postMessage(done);
  }
  const done: FromWorker = { type: 'done', id: message.id, result: await runJob(request, deps) };
  port?.postMessage(done);
}
