/**
 * Finds a trajectory's test outcome. In order:
 * 1. the `--outcomes` table (task + run, task + model, or task alone);
 * 2. a SWE-bench `report.json` in the trajectory's own folder;
 * 3. walking up at most 6 folders, in each: `results/results.json`,
 *    `results.json`, `logs/<task>/report.json`,
 *    `logs/run_evaluation/<run>[_eval]/<model>/<task>/report.json`, a
 *    harness / sb-cli run report named `*.<run>.json`, `results_summary.json`
 *    (the SWE-bench harness and sb-cli layouts), and the harness's per-instance
 *    `<any run id>/<the log's model, / as __>/<task>/report.json` moved out of `logs/run_evaluation`
 *    (e.g. `eval_results/openai__gpt-5-mini/<task>/report.json`): only the run's own model's folder,
 *    and only when every such report in that folder agrees (two evaluations that disagree name none);
 * 4. otherwise `unknown`.
 * Then (not for table entries) the log's exit status: a run the infrastructure interrupted (provider
 * time-out, connection or container failure, `exit_error`; not an agent
 * limit such as maximum iterations or cost) is `censored`
 * unless an evaluation says it passed.
 */
import { basename, dirname, join } from 'node:path';
import type { ReportFs } from './fs-port.js';
import { outcomesFromDoc, type OutcomeMap } from './outcome-docs.js';
import { lookupOutcomeEntry, type OutcomeEntry } from './outcomes-table.js';
import type { LoadedTrajectory, OutcomeInfo } from './types.js';

/** Exit statuses meaning the infrastructure, not the agent, ended the run. */
export const INFRA_EXIT = /timeout|connection|container|exit_error|apierror|ratelimit|internal server/i;
/** ... unless they name an agent limit (iterations, cost, context), which is a failure of the agent. */
const AGENT_LIMIT = /iteration|budget|cost|limit|context|format/i;

/** True when a log's exit status says the infrastructure interrupted the run. */
export function infraExit(status: string | undefined): boolean {
  return status !== undefined && INFRA_EXIT.test(status) && !AGENT_LIMIT.test(status);
}
const MAX_UP = 6;

export interface OutcomeContext {
  fs: ReportFs;
  table?: readonly OutcomeEntry[];
  cache: Map<string, OutcomeMap | null>;
}

function docAt(ctx: OutcomeContext, path: string): OutcomeMap | null {
  const hit = ctx.cache.get(path);
  if (hit !== undefined) return hit;
  const text = ctx.fs.kind(path) === 'file' ? ctx.fs.readText(path) : undefined;
  let map: OutcomeMap | null = null;
  if (text !== undefined) {
    try {
      map = outcomesFromDoc(JSON.parse(text), basename(dirname(path)));
    } catch {
      map = null;
    }
  }
  ctx.cache.set(path, map);
  return map;
}

/** A candidate evaluation file, with the model its path names (harness and sb-cli layouts). */
interface Candidate {
  file: string;
  model?: string;
}

function candidatesIn(ctx: OutcomeContext, dir: string, t: LoadedTrajectory, task: string): Candidate[] {
  const out: Candidate[] = [join(dir, 'results', 'results.json'), join(dir, 'results.json'), join(dir, 'logs', task, 'report.json')].map((file) => ({ file }));
  const evalRoot = join(dir, 'logs', 'run_evaluation');
  for (const runId of [t.run, `${t.run}_eval`]) {
    for (const m of ctx.fs.list(join(evalRoot, runId)) ?? []) if (m.dir) out.push({ file: join(evalRoot, runId, m.name, task, 'report.json'), model: m.name });
  }
  for (const e of ctx.fs.list(dir) ?? []) {
    if (!e.dir && e.name.endsWith(`.${t.run}.json`)) out.push({ file: join(dir, e.name), model: e.name.slice(0, -`.${t.run}.json`.length) });
  }
  out.push({ file: join(dir, 'results_summary.json') });
  return out;
}

/**
 * The harness folder name of a model (`model_name_or_path` with `/` as `__`, as the SWE-bench harness names its
 * `run_evaluation/<run id>/<model>/` folders), or undefined when the log names no model.
 */
function harnessFolder(model: string | null): string | undefined {
  return model === null || model === '' ? undefined : model.replaceAll('/', '__');
}

/**
 * The outcome of `<dir>/<X>/<model>/<task>/report.json` for any subfolder X (a harness run id under another name:
 * a user who moved the harness's `logs/run_evaluation/<run id>/` next to the logs), when exactly one outcome is found;
 * two run ids that disagree on the task give none (which evaluation was of this log cannot be told).
 */
function fromMovedHarness(ctx: OutcomeContext, dir: string, model: string | undefined, task: string): OutcomeInfo | undefined {
  if (model === undefined) return undefined;
  const found: OutcomeInfo[] = [];
  for (const e of ctx.fs.list(dir) ?? []) {
    if (!e.dir) continue;
    const file = join(dir, e.name, model, task, 'report.json');
    const o = docAt(ctx, file)?.get(task);
    if (o) found.push({ outcome: o, source: file });
  }
  return found.length > 0 && found.every((f) => f.outcome === found[0]!.outcome) ? found[0] : undefined;
}

function fromFiles(ctx: OutcomeContext, t: LoadedTrajectory, task: string): OutcomeInfo | undefined {
  let dir = dirname(t.path);
  const sibling = docAt(ctx, join(dir, 'report.json'))?.get(task);
  if (sibling) return { outcome: sibling, source: join(dir, 'report.json') };
  for (let up = 0; up < MAX_UP && dir !== dirname(dir); up++, dir = dirname(dir)) {
    for (const c of candidatesIn(ctx, dir, t, task)) {
      const o = docAt(ctx, c.file)?.get(task);
      if (o) return { outcome: o, source: c.file, ...(c.model ? { model: c.model } : {}) };
    }
    const moved = fromMovedHarness(ctx, dir, harnessFolder(t.model), task);
    if (moved) return moved;
  }
  return undefined;
}

/** The outcome of one trajectory and the file (or flag) it came from; a trajectory that names no task has none. */
export function resolveOutcome(ctx: OutcomeContext, t: LoadedTrajectory): OutcomeInfo {
  if (t.task === null) return { outcome: 'unknown', source: 'none (no task named)' };
  const row = ctx.table ? lookupOutcomeEntry(ctx.table, t.task, t.run, t.model) : undefined;
  if (row) return { outcome: row.outcome, source: '--outcomes', ...(row.model !== undefined ? { model: row.model } : {}), ...(row.agent !== undefined ? { agent: row.agent } : {}) };
  const found = fromFiles(ctx, t, t.task) ?? { outcome: 'unknown', source: 'none' };
  const exit = t.meta.exitStatus;
  if (found.outcome !== 'pass' && infraExit(exit)) {
    return { ...found, outcome: 'censored', source: `exit status ${exit} (${basename(found.source)})` };
  }
  return found;
}
