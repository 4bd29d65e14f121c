/**
 * The runs the calibration benches (calibration-online, calibration-retrain) work on: every run of the given
 * folders with an outcome, named by source, as `train` reads them; `train`'s feature-set choice on them; and each
 * run's end score by the forecaster fitted and chosen without its source (`heldOutBySource`).
 */
import { readFileSync } from 'node:fs';
import { readCorpusInput } from '../src/cli/corpus-input.js';
import { chooseReference } from '../src/cli/references.js';
import { trainAnalyzers, trainInput } from '../src/cli/train-runs.js';
import { DEFAULT_CONFIG } from '../src/core/config.js';
import { endScores } from '../src/core/forecast/crossfit.js';
import { sourceOf, type ForecastRun } from '../src/core/forecast/run.js';
import { selectConfig, type Selection } from '../src/core/forecast/select.js';
import { heldOutBySource } from '../src/core/forecast/train.js';
import { nodeReportFs } from '../src/report/node-fs.js';
import { nameRuns } from '../src/report/run-naming.js';
import { parseSourcesTable } from '../src/report/sources-table.js';
import { defaultAnalyzers } from '../src/syntax/index.js';

export interface CalibrationRuns {
  runs: ForecastRun[];
  sel: Selection;
  /** Each run's held-out end score (null where none). */
  z: Array<number | null>;
  /** Each run's source (agent + model). */
  src: string[];
}

/** The bench's `--outcomes`, `--manifest`, `--sources`. */
export interface RunFiles {
  outcomes?: string | undefined;
  manifest?: string | undefined;
  sources?: string | undefined;
}

/** Every run of `paths` with an outcome, named by source, as `train` reads them; `bench`: the bench's name, for messages. */
export async function loadForecastRuns(paths: readonly string[], o: RunFiles, bench: string): Promise<ForecastRun[]> {
  const { found, naming } = readCorpusInput(paths, { outcomes: o.outcomes, manifest: o.manifest }, process.cwd(), bench);
  const sourcesTable = o.sources !== undefined ? parseSourcesTable(readFileSync(o.sources, 'utf8'), o.sources) : undefined;
  if (sourcesTable !== undefined && !sourcesTable.ok) throw sourcesTable.error;
  const named = nameRuns(nodeReportFs, found.trajectories, { ...naming, sources: sourcesTable?.value ?? [] });
  return trainInput(named, await chooseReference(undefined), trainAnalyzers(defaultAnalyzers()), DEFAULT_CONFIG).runs;
}

/** `paths`: run folders; `o`: the bench's `--outcomes`, `--manifest`, `--sources`; `bench`: its name, for messages. */
export async function loadCalibrationRuns(paths: readonly string[], o: RunFiles, seed: number, bench: string): Promise<CalibrationRuns> {
  const runs = await loadForecastRuns(paths, o, bench);
  const sel = selectConfig(runs, 5, seed);
  return { runs, sel, z: endScores(heldOutBySource(runs, sel)), src: runs.map(sourceOf) };
}
