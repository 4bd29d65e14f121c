/**
 * The runs bench/evidence.ts measures: every trajectory under the given paths with a
 * pass/fail outcome (manifest, outcomes table, or evaluation files beside the logs),
 * labelled with the real state builder and fed to the evidence tracker step by step;
 * the evidence vector is kept after steps 10, 20, 40 and at the end.
 */
import { readFileSync } from 'node:fs';
import { readCorpusInput } from '../../src/cli/corpus-input.js';
import { trainAnalyzers } from '../../src/cli/train-runs.js';
import { createEvidenceTracker } from '../../src/core/evidence/evidence.js';
import { createStateBuilder } from '../../src/core/state-builder.js';
import { nodeReportFs } from '../../src/report/node-fs.js';
import { nameRuns, sourceLabel } from '../../src/report/run-naming.js';
import { parseSourcesTable } from '../../src/report/sources-table.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';

export const HORIZONS = [10, 20, 40] as const;

export interface EvidenceRun {
  id: string;
  task: string;
  source: string;
  passed: boolean;
  length: number;
  /** Whether the patch values at the end came from a submitted diff. */
  submitted: boolean;
  end: number[];
  /** The vector after step t, for the horizons the run reached. */
  at: Partial<Record<(typeof HORIZONS)[number], number[]>>;
}

export interface LoadOptions {
  paths: readonly string[];
  manifest?: string | undefined;
  outcomes?: string | undefined;
  sources?: string | undefined;
}

export function loadEvidenceRuns(o: LoadOptions): { runs: EvidenceRun[]; skipped: number } {
  const { found, naming } = readCorpusInput(o.paths, { outcomes: o.outcomes, manifest: o.manifest }, process.cwd(), 'evidence');
  const sourcesTable = o.sources !== undefined ? parseSourcesTable(readFileSync(o.sources, 'utf8'), o.sources) : undefined;
  if (sourcesTable !== undefined && !sourcesTable.ok) throw sourcesTable.error;
  const analyzers = trainAnalyzers(defaultAnalyzers());
  const runs: EvidenceRun[] = [];
  let skipped = 0;
  // Named as report, calibrate and train name them (src/report/run-naming.ts).
  for (const t of nameRuns(nodeReportFs, found.trajectories, { ...naming, ...(sourcesTable ? { sources: sourcesTable.value } : {}) })) {
    const outcome = t.outcome.outcome;
    if ((outcome !== 'pass' && outcome !== 'fail') || t.steps.length === 0) {
      skipped += 1;
      continue;
    }
    const builder = createStateBuilder(analyzers);
    const tracker = createEvidenceTracker();
    const at: EvidenceRun['at'] = {};
    t.steps.forEach((step, i) => {
      const { label, state } = builder.next(step);
      tracker.add(step, state, label);
      for (const h of HORIZONS) if (i + 1 === h) at[h] = tracker.vector();
    });
    runs.push({
      id: t.id,
      task: t.task ?? t.id,
      source: sourceLabel(t),
      passed: outcome === 'pass',
      length: t.steps.length,
      submitted: tracker.patchSubmitted === 1,
      end: tracker.vector(),
      at,
    });
  }
  return { runs, skipped };
}
