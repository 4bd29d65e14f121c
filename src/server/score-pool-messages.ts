/** Messages between the main thread (score-pool.ts) and a scoring worker (score-worker.ts). */
import type { Pta, Reference, TemporalPrior } from '../core/scorer-api.js';
import type { ErrorCode } from '../errors.js';
import type { JobResult, QueuedJob } from './scoring-jobs.js';

export type ToWorker =
  | { type: 'job'; id: number; request: QueuedJob }
  /** The answer to an `ask`: `value` is left out when the worker already holds the value tagged `tag`. */
  | { type: 'answer'; id: number; tag: number; value?: AskedValue | PtaText; error?: { code: ErrorCode; message: string } };

/** What a worker asks for: a task's reference, the prior, or a task's PTA whatever its references (null: none). */
export type AskedValue = Reference | TemporalPrior | { pta: Pta | null };

/**
 * A PTA as it crosses to a worker: its JSON text (`ptaToJson`), built a slice a turn on the main thread and parsed
 * in the worker. Sent as an object, a 10,000-node PTA was copied by the structured clone in one go on the main
 * thread (90 ms and more). `as`: the value it stands for (a reference, or a task's PTA).
 */
export interface PtaText {
  as: 'reference' | 'pta';
  text: string;
}

/** A task's reference (its PTA alone with `pta`) as `tenant` is scored against it, or the prior. */
export type Asked = { task: string; tenant: string; pta?: true } | { task?: undefined; prior: true };

export type FromWorker =
  | { type: 'done'; id: number; result: JobResult }
  /** A reference the job needs; `have` is the tag of the one the worker holds. */
  | ({ type: 'ask'; id: number; have?: number } & Asked);
