/** Assembles the corpus report from discovered trajectories: outcomes, scores, tables, statistics. */
import type { Analyzers } from '../core/ports.js';
import type { Discovery } from './discover.js';
import type { ReportFs } from './fs-port.js';
import { modelRows } from './models.js';
import type { OutcomeEntry } from './outcomes-table.js';
import { reliabilitySection } from './reliability-section.js';
import { resolveOutcome } from './resolve-outcome.js';
import { corpusCounts, externalReferenceWarnings, taskRows, trajectoryRows } from './rows.js';
import { scoreCorpus } from './score-corpus.js';
import { luckyChiSquare, separation } from './statistics.js';
import type { CorpusReport, ExternalReference } from './types.js';

export interface BuildReportOptions {
  fs: ReportFs;
  analyzers: Analyzers;
  /** Entries of the `--outcomes` table, if given. */
  table?: readonly OutcomeEntry[];
  paths: readonly string[];
  onProgress?: (done: number, total: number) => void;
  /** Per task, a stored PTA for trajectories whose task has too few passing ones in `paths`. */
  external?: ReadonlyMap<string, ExternalReference>;
  /** The folders `external` was read from, for the report's inputs. */
  referenceFolders?: ReadonlyArray<{ source: string; dir: string }>;
}

/** The whole report document. */
export function buildReport(discovery: Discovery, options: BuildReportOptions): CorpusReport {
  const ctx = { fs: options.fs, cache: new Map(), ...(options.table ? { table: options.table } : {}) };
  const outcomes = discovery.trajectories.map((t) => resolveOutcome(ctx, t));
  const scored = scoreCorpus(
    discovery.trajectories,
    outcomes.map((o) => o.outcome),
    {
      analyzers: options.analyzers,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      ...(options.external ? { external: options.external } : {}),
    },
  );
  const rows = trajectoryRows(discovery.trajectories, outcomes, scored);
  return {
    generatedBy: 'steplens report',
    inputs: {
      paths: [...options.paths],
      files: discovery.files,
      trajectories: discovery.trajectories.length,
      skippedFiles: discovery.skipped.length,
      skipped: discovery.skipped,
      problems: discovery.problems,
      referenceFolders: [...(options.referenceFolders ?? [])],
    },
    counts: corpusCounts(rows),
    tasks: taskRows(rows),
    trajectories: rows,
    models: modelRows(rows),
    separation: separation(rows),
    luckyChiSquare: luckyChiSquare(rows),
    reliability: reliabilitySection(rows),
    warnings: externalReferenceWarnings(rows),
  };
}
