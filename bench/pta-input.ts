/**
 * The runs the PTA-mode benches read (pta-loo.ts, pta-rules.ts): the run folders named as `train`, `report` and
 * `calibrate` name them (--manifest, --outcomes, --sources), scored once reference-free (train-runs.ts), with
 * the prior reference `train` uses. Only the paths given are read.
 */
import { readFileSync } from 'node:fs';
import { readCorpusInput } from '../src/cli/corpus-input.js';
import { chooseReference } from '../src/cli/references.js';
import { trainAnalyzers, trainInput, type TrainInput } from '../src/cli/train-runs.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import type { Reference } from '../src/core/scorer-api.js';
import { nodeReportFs } from '../src/report/node-fs.js';
import { nameRuns } from '../src/report/run-naming.js';
import { parseSourcesTable } from '../src/report/sources-table.js';
import { defaultAnalyzers } from '../src/syntax/index.js';

export interface PtaInputFlags {
  manifest?: string | undefined;
  outcomes?: string | undefined;
  sources?: string | undefined;
}

/** Reads and names the runs of `paths` and scores them reference-free. */
export async function ptaInput(paths: readonly string[], flags: PtaInputFlags, bench: string): Promise<{ input: TrainInput; prior: Reference }> {
  if (paths.length === 0) throw new Error('give the run folders as arguments (e.g. ../shared/calibration ../shared/corpus)');
  const { found, naming } = readCorpusInput(paths, { outcomes: flags.outcomes, manifest: flags.manifest }, process.cwd(), bench);
  const sourcesTable = flags.sources !== undefined ? parseSourcesTable(readFileSync(flags.sources, 'utf8'), flags.sources) : undefined;
  if (sourcesTable !== undefined && !sourcesTable.ok) throw sourcesTable.error;
  const named = nameRuns(nodeReportFs, found.trajectories, { ...naming, sources: sourcesTable?.value ?? [] });
  const prior = await chooseReference(undefined);
  return { input: trainInput(named, prior, trainAnalyzers(defaultAnalyzers()), DEFAULT_CONFIG), prior };
}
