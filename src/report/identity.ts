/**
 * Task, run, model and agent of a trajectory. The task is the log's, else a SWE-bench instance id
 * in the file or folder name (the id evaluations key on); the model is the log's (or, later, its
 * evaluation's: see resolve-outcome). Neither is made up from other file names: a log that names
 * no task or model has `null` there, and the report lists it as such. The run is the folder the
 * trajectory sits in (it groups runs whose logs name no model).
 */
import { basename, dirname } from 'node:path';
import type { FormatName, TrajectoryMeta } from '../formats/types.js';

// Tested on the names of an input file and its folders only (the CLI's files; no server path reaches it).
// eslint-disable-next-line regexp/no-super-linear-backtracking -- each name is at most 255 bytes (NAME_MAX): worst measured 0.05 ms
const INSTANCE_ID = /^[A-Za-z0-9_.-]+__[A-Za-z0-9_.-]+-\d+$/;
/** Folder names that hold trajectories but name no run. */
const GENERIC = new Set(['trajs', 'trajectories', 'traj', 'output', 'outputs', 'logs', 'results', 'runs', 'data', 'examples']);

/** File name without `.traj.json`, `.traj`, `.jsonl`, `.json` (and a trailing `.gz`). */
export function fileStem(path: string): string {
  return basename(path)
    .replace(/\.gz$/i, '')
    .replace(/(\.traj)?\.(json|jsonl)$|\.traj$/, '');
}

/** Path segments from the file's folder upwards. */
function folders(path: string): string[] {
  const out: string[] = [];
  let d = dirname(path);
  while (d !== dirname(d)) {
    out.push(basename(d));
    d = dirname(d);
  }
  return out;
}

/** The SWE-bench-style instance id in the file name or nearest folder, if any. */
export function taskFromPath(path: string): string | undefined {
  return [fileStem(path), ...folders(path)].find((s) => INSTANCE_ID.test(s));
}

/**
 * The run name: the nearest folder that is neither the task's folder nor a
 * generic container (`trajs`, `output`, ...): `<run>/trajs/<task>/x.json`,
 * `output/<run>/<task>/x.traj.json`, `<task>/trace_01_gpt-5/x.traj` → `trace_01_gpt-5`.
 */
export function runFromPath(path: string, task: string): string {
  return folders(path).find((s) => s !== task && !INSTANCE_ID.test(s) && !GENERIC.has(s.toLowerCase())) ?? 'run';
}

export interface IdentityOverrides {
  model?: string;
  run?: string;
}

export interface Identity {
  /** null: neither the log nor its file or folder names a task. */
  task: string | null;
  run: string;
  /** null: the log names no model (its evaluation may, see resolve-outcome). */
  model: string | null;
  agent: string;
}

/**
 * A trajectory's task: the log's, else the instance id its file or folder is named by (SWE-agent 0.x
 * writes `<instance_id>.traj` and names the task nowhere inside). Every command resolves it here.
 */
export function taskOf(path: string, meta: TrajectoryMeta): string | undefined {
  return meta.task ?? taskFromPath(path);
}

/** Identity of one trajectory; overrides (command-line flags) win over the log and the path. */
export function identify(path: string, meta: TrajectoryMeta, format: FormatName, overrides: IdentityOverrides = {}): Identity {
  const task = taskOf(path, meta) ?? null;
  const run = overrides.run ?? runFromPath(path, task ?? '');
  return { task, run, model: overrides.model ?? meta.model ?? null, agent: meta.agent ?? format };
}

/** How a table shows a model: its name, or the run it is grouped by when no log or evaluation names one. */
export function modelLabel(r: { model: string | null; run?: string | undefined }): string {
  return r.model ?? `(model not named) ${r.run ?? ''}`.trimEnd();
}

/** How a table shows a task that nothing names. */
export const UNNAMED_TASK = '(task not named)';
