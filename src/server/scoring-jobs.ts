/**
 * The HTTP scoring work as jobs over a raw JSON body: `POST /v1/score`, `/v1/score/batch`, `/get_reward`,
 * the runs of `POST /v1/rank`, and the states of `POST /v1/tasks/:task/references`. A job runs in a
 * worker thread (score-worker.ts, via score-pool.ts), so a large body or batch never holds the event
 * loop the streaming sessions share, or inline when workers are off. Same code, same references: the
 * same reports as a session.
 */
import type { z } from 'zod';
import type { ScoringConfig } from '../core/config.js';
import type { Policy } from '../core/policy.js';
import { ERROR_CODES, SteplensError, type ErrorCode } from '../errors.js';
import { addReferenceRequestSchema, getRewardRequestSchema, scoreBatchRequestSchema, scoreRequestSchema } from '../protocol/http-bodies.js';
import { EMPTY_BODY, parseBody } from '../protocol/parse.js';
import { rankRequestSchema } from '../protocol/rank-bodies.js';
import { batchItemsInSlices, rankBodyInSlices, rewardBodyInSlices, trajectoryBodyInSlices } from './body-in-slices.js';
import { getReward } from './reward-job.js';
import { rankJob } from './rank-job.js';
import { checkLength, scoreRequest, type JobForecast } from './score-request.js';
import { scoreStepsView, type StepsDeps } from './score-steps-job.js';
import { trajectoryStates, trajectoryStepsInSlices } from './trajectory.js';
import { statesJsonSlices } from '../store/pta-text.js';
import type { PortedBody } from './ported-body.js';

export type JobKind = 'score' | 'batch' | 'reward' | 'states' | 'steps' | 'rank';

/** One job: what it is, its body as received, and the server settings it scores with. */
export interface JobRequest {
  kind: JobKind;
  /** The request body: raw JSON bytes. */
  body: Uint8Array;
  policy: Policy;
  config: ScoringConfig;
  /** Steps one trajectory may have (the stream's per-session limit). */
  maxSteps: number;
  /** The forecast model in force when the request came (a plain object: it travels to the worker). */
  forecast?: JobForecast;
  /** The task a route names in its URL (`POST /v1/tasks/:task/references`): which instance of a multi-instance log. */
  task?: string;
  /** The requester's tenant: scored against its own PTAs first in `tenant` reference scope (reference-scope.ts). */
  tenant: string;
}

/** A job as the pool takes it: its body in one buffer, or still queued on a channel (ported-body.ts). */
export type QueuedJob = Omit<JobRequest, 'body'> & { body: Uint8Array | PortedBody };

/** A job's answer: the response body, or an error of the catalogue (`detail`: a fault's stack, for the server log). */
export type JobResult = { ok: true; value: unknown } | { ok: false; code: ErrorCode; message: string; detail?: string };

/** A batch item refused: counted and its fault's stack logged on the main thread, never sent to the client. */
export interface BatchRefusal {
  item: number;
  code: ErrorCode;
  detail?: string;
}

/** `POST /v1/score/batch`'s job value: the answer's JSON text, sent as is, and its items refused. */
export interface BatchValue {
  text: string;
  refusals: BatchRefusal[];
}

/** What a job needs besides its request: the references as a tenant sees them (and a task's PTA, for the steps view) and the analyzers. */
export interface JobDeps extends Pick<StepsDeps, 'prior' | 'analyzers'> {
  reference: (task: string, tenant: string) => ReturnType<StepsDeps['reference']>;
  pta: (task: string, tenant: string) => ReturnType<StepsDeps['pta']>;
}

function readJson(body: Uint8Array): unknown {
  if (body.length === 0) throw new SteplensError('bad_message', EMPTY_BODY);
  try {
    return JSON.parse(new TextDecoder().decode(body)) as unknown;
  } catch (error) {
    throw new SteplensError('bad_message', `body: invalid JSON: ${(error as Error).message}`);
  }
}

function parsed<T>(result: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!result.ok) throw new SteplensError('bad_message', result.error);
  return result.value;
}

/** A fault as a job error: expected ones keep their code, anything else is `internal` with its stack for the log. */
export function jobError(error: unknown, where = ''): JobResult {
  if (error instanceof SteplensError) return { ok: false, code: error.code, message: error.message };
  return { ok: false, code: 'internal', message: `${where}${ERROR_CODES.internal.summary}`, detail: (error as Error)?.stack ?? String(error) };
}

/**
 * The request, checked by `schema`: as read in slices (body-in-slices.ts) when it plainly could be, else parsed whole,
 * for the value or the error it always gave.
 */
async function checkedBody<S extends z.ZodType>(body: Uint8Array, schema: S, inSlices: Promise<z.infer<S> | undefined>): Promise<z.infer<S>> {
  return (await inSlices) ?? parsed(parseBody(schema, readJson(body)));
}

async function work(req: JobRequest, deps: StepsDeps): Promise<unknown> {
  // A batch is read an item at a time, a reward request a query at a time, a rank's runs and a trajectory's records a
  // slice at a time, when they plainly can be (body-in-slices.ts): every other body, whole.
  const items = req.kind === 'batch' ? await batchItemsInSlices(req.body) : undefined;
  const reward = req.kind === 'reward' ? await rewardBodyInSlices(req.body) : undefined;
  const doc = items === undefined && reward === undefined && (req.kind === 'batch' || req.kind === 'reward') ? readJson(req.body) : undefined;
  switch (req.kind) {
    case 'score':
      return scoreRequest(deps, await checkedBody(req.body, scoreRequestSchema, trajectoryBodyInSlices(req.body, scoreRequestSchema)));
    case 'batch': {
      // The answer as JSON text, an item's at a time (T98): as an object, 1,024 items' reports (8 MB) were read back and
      // serialised on the main thread in one go, 200-370 ms of every tenant's loop.
      const texts: string[] = [];
      const refusals: BatchRefusal[] = [];
      // One item's failure, whatever it is, is that item's answer: the others are still scored.
      for (const [i, item] of (items ?? parsed(parseBody(scoreBatchRequestSchema, doc)).items).entries()) {
        try {
          texts.push(JSON.stringify(await scoreRequest(deps, item, `items[${i}].`)));
        } catch (error) {
          const e = jobError(error, `items[${i}]: `);
          if (e.ok) continue;
          texts.push(JSON.stringify({ error: { code: e.code, message: e.message } }));
          refusals.push({ item: i, code: e.code, ...(e.detail !== undefined ? { detail: e.detail } : {}) });
        }
      }
      return { text: `{"results":[${texts.join(',')}]}`, refusals } satisfies BatchValue;
    }
    case 'reward':
      // Each query's scoring asks the main thread for its reference (score-worker.ts): the worker's loop turns between queries.
      return getReward(deps, reward ?? parsed(parseBody(getRewardRequestSchema, doc)));
    case 'steps':
      return scoreStepsView(deps, await checkedBody(req.body, scoreRequestSchema, trajectoryBodyInSlices(req.body, scoreRequestSchema)));
    case 'rank':
      return rankJob(deps, await checkedBody(req.body, rankRequestSchema, rankBodyInSlices(req.body)));
    case 'states': {
      const body = await checkedBody(req.body, addReferenceRequestSchema, trajectoryBodyInSlices(req.body, addReferenceRequestSchema));
      const steps = await trajectoryStepsInSlices(body.trajectory, body.format, 'body.trajectory', req.task);
      checkLength(steps, deps.maxSteps, 'body.trajectory');
      // As JSON slices: the main thread reads them back a slice a turn (statesJsonSlices).
      return statesJsonSlices(await trajectoryStates(steps, deps.analyzers, { kind: 'prior', prior: await deps.prior() }));
    }
  }
}

/** Runs one job; never rejects (every failure is a JobResult). */
export async function runJob(req: JobRequest, deps: JobDeps): Promise<JobResult> {
  try {
    const value = await work(req, {
      ...deps,
      reference: (task) => deps.reference(task, req.tenant),
      pta: (task) => deps.pta(task, req.tenant),
      policy: req.policy,
      config: req.config,
      maxSteps: req.maxSteps,
      ...(req.forecast !== undefined ? { forecast: req.forecast } : {}),
    });
    return { ok: true, value };
  } catch (error) {
    return jobError(error);
  }
}
