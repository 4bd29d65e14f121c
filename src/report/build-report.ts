/** Assembles the corpus report from discovered trajectories: names and outcomes, scores, tables, statistics. */
import type { ScoringConfig } from '../core/config.js';
import type { FailingReference } from '../core/calibrate/references.js';
import type { ForecastFile } from '../core/forecast/model.js';
import type { Analyzers } from '../core/ports.js';
import type { TemporalPrior } from '../core/scorer-api.js';
import { BOOTSTRAP_DEFAULTS } from '../core/stats/bootstrap.js';
import { MIN_PER_CLASS } from '../core/stats/separation.js';
import type { Discovery } from './discover.js';
import type { ReportFs } from './fs-port.js';
import { MIN_RANKED_RUNS, modelRows } from './models.js';
import { forecastInSample, markInSample } from './forecast-in-sample.js';
import { headToHead } from './head-to-head.js';
import { referenceKindMix } from './reference-mix.js';
import { reliabilitySection } from './reliability-section.js';
import { corpusCounts, taskRows, trajectoryRows } from './rows.js';
import { nameRuns, type RunNamingInputs } from './run-naming.js';
import { scoreCorpus } from './score-corpus.js';
import { untiedEvaluationWarning } from './untied-evaluations.js';
import { reportWarnings } from './warnings.js';
import { calibration, luckyChiSquare, selection, separation } from './statistics.js';
import { REFERENCE_KINDS, type CorpusReport, type ExternalReference, type ReferenceSplit, type StatisticsSettings, type TrajectoryRow } from './types.js';

export interface BuildReportOptions {
  fs: ReportFs;
  analyzers: Analyzers;
  /** `--outcomes`, `--manifest`, `--model`: what names the runs beyond their logs (run-naming.ts). */
  naming?: RunNamingInputs;
  paths: readonly string[];
  onProgress?: (done: number, total: number) => void;
  /** Per task, a stored PTA for trajectories whose task has too few passing ones in `paths`. */
  external?: ReadonlyMap<string, ExternalReference>;
  /** The folders `external` was read from, for the report's inputs. */
  referenceFolders?: ReadonlyArray<{ source: string; dir: string }>;
  /** The prior a run without any PTA is scored against (reference-free); without it such runs stay unscored. */
  prior?: TemporalPrior;
  /** Outcome forecasters (`--forecast`): adds pPass to each run, its separation and best-of-N. */
  forecast?: ForecastFile;
  /** `--rank-model end`: each run's pPass by the forecast file's end-of-run model. */
  endModel?: boolean;
  /** Which in-folder reference a failing run meets (`--failing-reference`, default `matched`: core/calibrate/references.ts). */
  failingReference?: FailingReference;
  /** Bootstrap seed (`--seed`, default 1). */
  seed?: number;
  /** Fewest runs behind a rank (`--min-runs`, default MIN_RANKED_RUNS). */
  minRuns?: number;
  /** Also the models, separation and best-of-N per reference kind (`--by-reference`). */
  byReference?: boolean;
  /** Warnings about the inputs printed before scoring (e.g. a manifest naming no log found): kept in `warnings`. */
  inputWarnings?: readonly string[];
  /** Scoring config (`--config`) and the file it was read from, for the report's inputs. */
  config?: { file: string; config: ScoringConfig };
}

function referenceSplits(rows: readonly TrajectoryRow[], s: StatisticsSettings): ReferenceSplit[] {
  return REFERENCE_KINDS.flatMap((reference) => {
    const runs = rows.filter((r) => r.reference?.kind === reference);
    if (runs.length === 0) return [];
    const selectionOf = selection(runs, { seed: s.seed, reps: s.reps, level: s.level });
    return [{ reference, trajectories: runs.length, models: modelRows(runs, s), separation: separation(runs, s, reference), selection: selectionOf }];
  });
}

const withCalibration = (c: CorpusReport['calibration']): Pick<CorpusReport, 'calibration'> => (c === undefined ? {} : { calibration: c });

/** The whole report document. */
export function buildReport(discovery: Discovery, options: BuildReportOptions): CorpusReport {
  const named = nameRuns(options.fs, discovery.trajectories, options.naming);
  const scored = scoreCorpus(
    named,
    named.map((t) => t.outcome.outcome),
    {
      analyzers: options.analyzers,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.external ? { external: options.external } : {}),
      ...(options.prior ? { prior: options.prior } : {}),
      ...(options.forecast ? { forecast: options.forecast } : {}),
      ...(options.endModel === true ? { endModel: true } : {}),
      ...(options.failingReference ? { failingReference: options.failingReference } : {}),
      ...(options.config ? { config: options.config.config } : {}),
    },
  );
  const unmarked = trajectoryRows(named, scored);
  const rows = options.forecast
    ? markInSample(
        options.forecast,
        unmarked,
        named.map((t) => t.steps),
      )
    : unmarked;
  const statistics: StatisticsSettings = {
    level: BOOTSTRAP_DEFAULTS.level,
    reps: BOOTSTRAP_DEFAULTS.reps,
    seed: options.seed ?? BOOTSTRAP_DEFAULTS.seed,
    passRateInterval: 'wilson',
    minRuns: options.minRuns ?? MIN_RANKED_RUNS,
    minPerClass: MIN_PER_CLASS,
    unit: 'task',
  };
  const models = modelRows(rows, statistics);
  const report: Omit<CorpusReport, 'warnings' | 'referenceKindMix'> = {
    generatedBy: 'steplens report',
    inputs: {
      paths: [...options.paths],
      files: discovery.files,
      trajectories: discovery.trajectories.length,
      skippedFiles: discovery.skipped.length,
      skipped: discovery.skipped,
      problems: discovery.problems,
      referenceFolders: [...(options.referenceFolders ?? [])],
      ...(options.config ? { config: options.config.file } : {}),
      ...(options.forecast
        ? {
            forecastInSample: forecastInSample(options.forecast, rows),
            ...(options.endModel === true ? { forecastModel: 'end' as const } : {}),
          }
        : {}),
    },
    counts: corpusCounts(rows),
    tasks: taskRows(rows),
    trajectories: rows,
    models,
    headToHead: headToHead(rows, { seed: statistics.seed, reps: statistics.reps, level: statistics.level }),
    separation: separation(rows, statistics),
    // Only the bootstrap settings: bestOfN reads its own `minRuns` (runs per group), not the ranking's.
    selection: selection(rows, { seed: statistics.seed, reps: statistics.reps, level: statistics.level }),
    ...withCalibration(calibration(rows, { seed: statistics.seed, reps: statistics.reps, level: statistics.level })),
    statistics,
    ...(options.byReference ? { byReference: referenceSplits(rows, statistics) } : {}),
    luckyChiSquare: luckyChiSquare(rows),
    reliability: reliabilitySection(rows, { seed: statistics.seed, reps: statistics.reps, level: statistics.level }),
  };
  const mix = referenceKindMix(rows);
  const untied = untiedEvaluationWarning(options.fs, discovery.skipped, named);
  const inputWarnings = [...(options.inputWarnings ?? []), ...(untied !== null ? [untied] : [])];
  return { ...report, warnings: reportWarnings({ ...report, referenceKindMix: mix }, inputWarnings), referenceKindMix: mix };
}
