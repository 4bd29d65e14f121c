/**
 * The runs bench/rank.ts ranks: every trajectory under the given paths with a pass/fail outcome
 * (manifest, outcomes table, or evaluation files beside the logs), scored once with the server's
 * scorer (reference-free, the bundled prior) and fed to the evidence and footprint trackers step by
 * step. Each run keeps its steps (the group-PTA candidate scores them again) and states.
 */
import { readFileSync } from 'node:fs';
import { readCorpusInput } from '../../src/cli/corpus-input.js';
import { parseManifest } from '../../src/report/manifest.js';
import { createEvidenceTracker } from '../../src/core/evidence/evidence.js';
import { createForecaster } from '../../src/core/forecast/forecaster.js';
import { selectModel, type ForecastFile } from '../../src/core/forecast/model.js';
import type { Analyzers } from '../../src/core/ports.js';
import { createFootprintTracker, type Footprint } from './patch-footprint.js';
import { createFinalPatchTracker } from '../../src/core/rank/final-patch.js';
import { createScorer } from '../../src/core/scorer.js';
import type { Reference } from '../../src/core/scorer-api.js';
import type { Label, State, Step } from '../../src/core/types.js';
import { nodeReportFs } from '../../src/report/node-fs.js';
import { resolveOutcome } from '../../src/report/resolve-outcome.js';
import { parseSourcesTable, sourceOf } from '../../src/report/sources-table.js';

export interface RankRun {
  path: string;
  id: string;
  task: string;
  source: string;
  agent: string;
  model: string;
  passed: boolean;
  length: number;
  /** Reference-free composite (the bundled prior) at the end. */
  composite: number;
  evidence: number[];
  footprint: Footprint;
  /** The normalised final patch (src/core/rank/final-patch.ts) the vote candidates compare. */
  finalPatch: string[];
  steps: Step[];
  states: readonly State[];
  /** The scorer's label of each step (aligned with `steps` and `states`): the forecaster's evidence reads them. */
  labels: Label[];
}

export interface LoadOptions {
  paths: readonly string[];
  manifest?: string | undefined;
  outcomes?: string | undefined;
  sources?: string | undefined;
  reference: Reference;
  analyzers: Analyzers;
}

export function loadRankRuns(o: LoadOptions): { runs: RankRun[]; skipped: number } {
  const { found, table } = readCorpusInput(o.paths, { outcomes: o.outcomes }, process.cwd(), 'rank');
  const manifest = o.manifest !== undefined ? parseManifest(readFileSync(o.manifest, 'utf8'), o.manifest) : undefined;
  const sourcesTable = o.sources !== undefined ? parseSourcesTable(readFileSync(o.sources, 'utf8'), o.sources) : undefined;
  if (sourcesTable !== undefined && !sourcesTable.ok) throw sourcesTable.error;
  const ctx = { fs: nodeReportFs, cache: new Map(), ...(table ? { table } : {}) };
  const runs: RankRun[] = [];
  let skipped = 0;
  for (const t of found.trajectories) {
    const m = manifest?.get(t.path);
    const outcome = m?.passed !== undefined ? (m.passed ? 'pass' : 'fail') : resolveOutcome(ctx, t).outcome;
    if ((outcome !== 'pass' && outcome !== 'fail') || t.steps.length === 0 || t.task === null) {
      skipped += 1;
      continue;
    }
    const named = sourceOf(sourcesTable?.value ?? [], t.run, m?.agent ?? t.agent, m?.model ?? t.model ?? '(model not named)');
    const scorer = createScorer({ reference: o.reference, analyzers: o.analyzers });
    const evidence = createEvidenceTracker();
    const footprint = createFootprintTracker();
    const finalPatch = createFinalPatchTracker();
    const labels: Label[] = [];
    for (const step of t.steps) {
      const r = scorer.push(step);
      labels.push(r.label);
      evidence.add(step, r.state, r.label);
      footprint.add(step, r.state, r.label);
      finalPatch.add(step, r.state, r.label);
    }
    runs.push({
      path: t.path,
      id: t.id,
      task: t.task,
      source: `${named.agent} + ${named.model}`,
      agent: named.agent,
      model: named.model,
      passed: outcome === 'pass',
      length: t.steps.length,
      composite: scorer.score().total,
      evidence: evidence.vector(),
      footprint: footprint.value(),
      finalPatch: finalPatch.value(),
      steps: t.steps,
      states: scorer.states(),
      labels,
    });
  }
  return { runs, skipped };
}

/** pPass at the end of each run from the model of `file` its agent and model select (NaN when none applies). */
export function forecastEnd(runs: readonly RankRun[], file: ForecastFile): number[] {
  return runs.map((r) => {
    const model = selectModel(file, r.agent, r.model);
    if (model === undefined) return Number.NaN;
    const f = createForecaster(model);
    r.states.forEach((s, i) => f.add(r.steps[i]!, s, r.labels[i]!));
    return f.value();
  });
}
