/**
 * How every command (`report`, `calibrate`, `train`) names a run: its task, agent, model and outcome,
 * from the same inputs in the same order, so one run is one source (agent + model) everywhere.
 *
 * - outcome: the `--manifest` row's `resolved`, else `resolveOutcome` (`--outcomes` row, evaluation
 *   files beside the logs, the log's exit status);
 * - model: `--model`, else the manifest row, else the `--sources` row of the run folder, else the log,
 *   else the matched `--outcomes` row or the evaluation's path (harness `<model>/`, sb-cli `<model>.<run>.json`);
 * - agent: the manifest row, else the `--sources` row, else the matched `--outcomes` row, else the log
 *   (its agent name, else its format);
 * - task: the log's (or its file or folder name's), else the manifest row's.
 * A run whose model nothing names keeps `model: null` and is its own source per run folder
 * (`(model not named) <run>`), never pooled with other such runs.
 */
import type { ReportFs } from './fs-port.js';
import { modelLabel } from './identity.js';
import type { ManifestEntry } from './manifest.js';
import type { OutcomeEntry } from './outcomes-table.js';
import { resolveOutcome } from './resolve-outcome.js';
import type { SourceEntry } from './sources-table.js';
import type { LoadedTrajectory, OutcomeInfo } from './types.js';

/** What names runs beyond their logs: the command's tables and flags. */
export interface RunNamingInputs {
  /** `--outcomes FILE` rows. */
  table?: readonly OutcomeEntry[];
  /** `--manifest FILE`: absolute log path → row. */
  manifest?: ReadonlyMap<string, ManifestEntry>;
  /** `--sources FILE` rows (run folder → agent, model). */
  sources?: readonly SourceEntry[];
  /** `--model NAME` (wins over everything). */
  model?: string;
}

/** A trajectory with its resolved identity and outcome. */
export interface NamedTrajectory extends LoadedTrajectory {
  outcome: OutcomeInfo;
}

/** The source (agent + model) label of a run; a model nobody names is labelled by its run folder. */
export function sourceLabel(r: { agent: string; model: string | null; run: string }): string {
  return `${r.agent} + ${modelLabel(r)}`;
}

/** Names every trajectory (same order); reads evaluation files through `fs`. */
export function nameRuns(fs: ReportFs, trajectories: readonly LoadedTrajectory[], inputs: RunNamingInputs = {}): NamedTrajectory[] {
  const ctx = { fs, cache: new Map(), ...(inputs.table ? { table: inputs.table } : {}) };
  return trajectories.map((t) => {
    const m = inputs.manifest?.get(t.path);
    const s = inputs.sources?.find((x) => x.run === t.run);
    const task = t.task ?? m?.task ?? null;
    const logModel = inputs.model ?? m?.model ?? s?.model ?? t.model;
    // The outcome table is matched on the model the log (or a table above) names, as before.
    const found: OutcomeInfo = m?.passed !== undefined ? { outcome: m.passed ? 'pass' : 'fail', source: '--manifest' } : resolveOutcome(ctx, { ...t, task, model: logModel });
    const model = logModel ?? found.model ?? null;
    const agent = m?.agent ?? s?.agent ?? found.agent ?? t.agent;
    return { ...t, task, model, agent, outcome: found };
  });
}
