/** The scored runs `steplens calibrate` works on: trajectories under PATH... (scored now) and `--runs` files (scored before). */
import { join, resolve } from 'node:path';
import type { ScoringConfig } from '../core/config.js';
import { SteplensError } from '../errors.js';
import { nodeReportFs } from '../report/node-fs.js';
import { modelLabel } from '../report/identity.js';
import { printable } from '../printable.js';
import { nameRuns } from '../report/run-naming.js';
import { untiedEvaluationWarning } from '../report/untied-evaluations.js';
import { readTextSync } from '../text-files.js';
import { parseSourcesTable, type SourceEntry } from '../report/sources-table.js';
import { defaultAnalyzers } from '../syntax/index.js';
import type { CalibrateArgs } from './calibrate-args.js';
import { scoreKnownRuns, type KnownRun } from './calibrate-runs.js';
import { readCorpusInput, reportCorpusInput } from './corpus-input.js';
import { chooseReference } from './references.js';
import { readScoredRuns, type ScoredRun } from './scored-runs.js';

/**
 * A count taken while scoring the trajectories under PATH... (`paths`; null without any). Runs read from --runs
 * files were scored when saved, and the file does not carry the count (`saved`: some were read): print it as not
 * known rather than as 0.
 */
export interface PathCount {
  paths: number | null;
  saved: boolean;
}

export interface LoadedRuns {
  runs: ScoredRun[];
  /** Trajectories found without a pass/fail outcome (left out). */
  withoutOutcome: PathCount;
  /** Trajectories found with no steps (left out; e.g. logs the parser reads as empty). */
  empty: number;
  /** Trajectories with an outcome whose log names no task (left out: leave-one-out references and task folds need it). */
  noTask: number;
  /** 1 when a file under PATH... was broken and --lenient was not given (each was named on stderr), else 0. */
  exit: number;
  /** Files under PATH... no parser could read. */
  unreadable: Array<{ path: string; reason: string }>;
  /** References of the prior the reference-free scores of PATH... used. */
  priorReferences: PathCount;
}

function sourcesTable(file: string | undefined, cwd: string): SourceEntry[] {
  if (file === undefined) return [];
  const text = readTextSync(resolve(cwd, file));
  if (!text.ok) throw new SteplensError('bad_input', `--sources ${file}: ${text.error.message}`);
  const parsed = parseSourcesTable(text.value, file);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/** Loads and scores; throws `bad_input` when no run with an outcome remains. */
export async function loadCalibrationRuns(a: CalibrateArgs, cwd: string, config: ScoringConfig, stderr: (s: string) => void): Promise<LoadedRuns> {
  const runs: ScoredRun[] = a.runs.flatMap((f) => readScoredRuns(resolve(cwd, f)));
  let withoutOutcome = 0;
  let empty = 0;
  let noTask = 0;
  let exit = 0;
  let priorReferences: number | null = null;
  const unreadable: LoadedRuns['unreadable'] = [];
  if (a.paths.length > 0) {
    // The walk passes over the command's own files: outputs written into PATH on an earlier run are not read back as runs.
    const ownFiles = [a.sources, ...a.runs, a.saveRuns, a.config, a.configOut, a.out, a.outDir !== undefined ? join(a.outDir, 'calibration.json') : undefined];
    const { found, naming, warnings } = readCorpusInput(a.paths, { ...a.corpus, lenient: a.lenient }, cwd, 'calibrate', ownFiles);
    exit = reportCorpusInput(found, a.lenient, stderr, warnings);
    const sources = sourcesTable(a.sources, cwd);
    const known: KnownRun[] = [];
    // Named as `report` and `train` name them (run-naming.ts): a model nobody names is its own source per run folder.
    const named = nameRuns(nodeReportFs, found.trajectories, { ...naming, sources });
    const untied = untiedEvaluationWarning(nodeReportFs, found.skipped, named);
    if (untied !== null) stderr(`${printable(untied)}\n`);
    for (const t of named) {
      const outcome = t.outcome.outcome;
      if (outcome !== 'pass' && outcome !== 'fail') withoutOutcome += 1;
      else if (t.steps.length === 0) empty += 1;
      else if (t.task === null) noTask += 1;
      else known.push({ trajectory: t, task: t.task, passed: outcome === 'pass', agent: t.agent, model: modelLabel(t) });
    }
    unreadable.push(...found.skipped.filter((s) => s.reason !== 'evaluation or task metadata'));
    const prior = await chooseReference(undefined);
    priorReferences = prior.kind === 'prior' ? prior.prior.references : 0;
    runs.push(...scoreKnownRuns(known, prior, defaultAnalyzers(), config));
  }
  if (runs.length === 0)
    throw new SteplensError('bad_input', `no run with a known pass/fail outcome and at least one step (${withoutOutcome} without an outcome, ${empty} without steps; give --outcomes FILE)`);
  const count = (n: number | null): PathCount => ({ paths: a.paths.length > 0 ? n : null, saved: a.runs.length > 0 });
  return { runs, withoutOutcome: count(withoutOutcome), empty, noTask, exit, unreadable, priorReferences: count(priorReferences) };
}
