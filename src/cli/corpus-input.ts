/** The corpus input shared by `report` and `calibrate`: trajectory paths, outcome table, name overrides. */
import { resolve } from 'node:path';
import { SteplensError } from '../errors.js';
import { parseLogText } from '../formats/index.js';
import { printable, readTextSync } from '../text-files.js';
import { discover, type Discovery } from '../report/discover.js';
import { nodeReportFs } from '../report/node-fs.js';
import { parseOutcomesTable, type OutcomeEntry } from '../report/outcomes-table.js';

/** The flags both commands accept (merge into parseArgs options). */
export const CORPUS_OPTIONS = {
  outcomes: { type: 'string' },
  model: { type: 'string' },
  run: { type: 'string' },
  lenient: { type: 'boolean', default: false },
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
    const text = readTextSync(resolve(cwd, values.outcomes));
    if (!text.ok) throw new SteplensError('bad_input', `--outcomes ${values.outcomes}: ${text.error.message}`);
    const parsed = parseOutcomesTable(text.value, values.outcomes);
    if (!parsed.ok) throw parsed.error;
    table = parsed.value;
  }
  const overrides = { ...(values.model ? { model: values.model } : {}), ...(values.run ? { run: values.run } : {}) };
  const found = discover(nodeReportFs, paths, (text, source) => parseLogText(text, 'auto', source), overrides);
  if (found.trajectories.length === 0) {
    const first = found.skipped.find((x) => x.kind !== 'metadata') ?? found.skipped[0];
    const why = first ? `; e.g. ${first.path}: ${first.reason}` : '';
    throw new SteplensError('bad_input', `no trajectory found in ${positionals.join(', ')} (${found.files} candidate files, none a log in a supported format${why})`);
  }
  return { paths, found, ...(table ? { table } : {}) };
}

/**
 * Names on stderr, one printable line each, every file that was skipped for a reason other than
 * being evaluation or task metadata, and every line or event skipped inside a log that was read.
 * Returns the exit code: 1 when a log was broken (unreadable file, skipped line or event) unless
 * `--lenient`; JSON in no log format is named but does not fail the run.
 */
export function reportCorpusInput(found: Discovery, lenient: boolean, stderr: (s: string) => void): number {
  for (const x of found.skipped) if (x.kind !== 'metadata') stderr(`${printable(`skipped ${x.path}: ${x.reason}`)}\n`);
  for (const p of found.problems) stderr(`${printable(`${p.path}: ${p.at}: ${p.message}`)}\n`);
  const broken = found.skipped.some((x) => x.kind === 'unreadable') || found.problems.length > 0;
  return broken && !lenient ? 1 : 0;
}
