/** The corpus input shared by `report` and `calibrate`: trajectory paths, outcome table, name overrides. */
import { resolve } from 'node:path';
import { SteplensError } from '../errors.js';
import { parseInstancesText } from '../formats/index.js';
import { discover, type Discovery } from '../report/discover.js';
import { nodeReportFs } from '../report/node-fs.js';
import { parseOutcomesTable, type OutcomeEntry } from '../report/outcomes-table.js';

/** The flags both commands accept (merge into parseArgs options). */
export const CORPUS_OPTIONS = {
  outcomes: { type: 'string' },
  model: { type: 'string' },
  run: { type: 'string' },
} as const;

export interface CorpusInput {
  paths: string[];
  found: Discovery;
  /** Entries of `--outcomes FILE`, when given. */
  table?: OutcomeEntry[];
}

/** Reads `--outcomes` and discovers the trajectories under PATH...; one-line errors for bad input. */
export function readCorpusInput(
  positionals: readonly string[],
  values: { outcomes?: string | undefined; model?: string | undefined; run?: string | undefined },
  cwd: string,
  command: string,
): CorpusInput {
  if (positionals.length === 0) throw new SteplensError('usage', `no PATH given (usage: steplens ${command} [--outcomes FILE] ... PATH...)`);
  const paths = positionals.map((p) => resolve(cwd, p));
  let table: OutcomeEntry[] | undefined;
  if (values.outcomes !== undefined) {
    const text = nodeReportFs.readText(resolve(cwd, values.outcomes));
    if (text === undefined) throw new SteplensError('bad_input', `--outcomes ${values.outcomes}: cannot read the file`);
    const parsed = parseOutcomesTable(text, values.outcomes);
    if (!parsed.ok) throw parsed.error;
    table = parsed.value;
  }
  const overrides = { ...(values.model ? { model: values.model } : {}), ...(values.run ? { run: values.run } : {}) };
  const found = discover(nodeReportFs, paths, (text, source) => parseInstancesText(text, 'auto', source), overrides);
  if (found.trajectories.length === 0) {
    throw new SteplensError('bad_input', `no trajectory found in ${positionals.join(', ')} (${found.files} JSON files, none in a supported format)`);
  }
  return { paths, found, ...(table ? { table } : {}) };
}
