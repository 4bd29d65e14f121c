/** The corpus input shared by `report`, `calibrate` and `train`: trajectory paths, outcome table, manifest, name overrides. */
import { dirname, resolve } from 'node:path';
import { SteplensError } from '../errors.js';
import { parseLogText } from '../formats/index.js';
import { printable, readTextSync } from '../text-files.js';
import { discover, type Discovery } from '../report/discover.js';
import { nodeReportFs } from '../report/node-fs.js';
import { parseManifest, type ManifestEntry } from '../report/manifest.js';
import { parseOutcomesTable, type OutcomeEntry } from '../report/outcomes-table.js';
import type { RunNamingInputs } from '../report/run-naming.js';

/** The flags both commands accept (merge into parseArgs options). */
export const CORPUS_OPTIONS = {
  outcomes: { type: 'string' },
  manifest: { type: 'string' },
  model: { type: 'string' },
  run: { type: 'string' },
  lenient: { type: 'boolean', default: false },
} as const;

export interface CorpusInput {
  paths: string[];
  found: Discovery;
  /** Entries of `--outcomes FILE`, when given. */
  table?: OutcomeEntry[];
  /** `--manifest FILE`, when given. */
  manifest?: Map<string, ManifestEntry>;
  /** What names the runs beyond their logs (pass to `nameRuns`). */
  naming: RunNamingInputs;
  /** Lines for stderr about the input that is read all the same (a manifest that names none of the runs found). */
  warnings: string[];
}

function readTable<T>(flag: string, file: string, cwd: string, parse: (text: string, path: string) => T): T {
  const path = resolve(cwd, file);
  const text = readTextSync(path);
  // The flag already names the file: say why once, without its path again.
  if (!text.ok) throw new SteplensError('bad_input', `${flag} ${file}: ${text.error.message.replace(`cannot read ${path}: `, 'cannot read the file: ')}`);
  return parse(text.value, path);
}

/** Reads `--outcomes FILE` and `--manifest FILE` (one-line errors naming the flag), as `nameRuns` takes them. */
export function readOutcomeTables(values: { outcomes?: string | undefined; manifest?: string | undefined }, cwd: string): { table?: OutcomeEntry[]; manifest?: Map<string, ManifestEntry> } {
  const outcomes = values.outcomes;
  const table =
    outcomes === undefined
      ? undefined
      : readTable('--outcomes', outcomes, cwd, (text) => {
          const parsed = parseOutcomesTable(text, outcomes);
          if (!parsed.ok) throw parsed.error;
          return parsed.value;
        });
  const manifest = values.manifest === undefined ? undefined : readTable('--manifest', values.manifest, cwd, parseManifest);
  return { ...(table ? { table } : {}), ...(manifest ? { manifest } : {}) };
}

/**
 * Reads `--outcomes` and discovers the trajectories under PATH...; one-line errors for bad input. The walk of a
 * PATH folder passes over the `--outcomes` and `--manifest` files and `flagFiles` (the command's other files: its
 * config, its outputs, ...; relative to `cwd`), silently: they are the command's own, not runs.
 */
export function readCorpusInput(
  positionals: readonly string[],
  values: { outcomes?: string | undefined; manifest?: string | undefined; model?: string | undefined; run?: string | undefined; lenient?: boolean | undefined },
  cwd: string,
  command: string,
  flagFiles: ReadonlyArray<string | undefined> = [],
): CorpusInput {
  if (positionals.length === 0) throw new SteplensError('usage', `no PATH given (usage: steplens ${command} [--outcomes FILE] ... PATH...)`);
  const paths = positionals.map((p) => resolve(cwd, p));
  const { table, manifest } = readOutcomeTables(values, cwd);
  const overrides = { ...(values.model ? { model: values.model } : {}), ...(values.run ? { run: values.run } : {}) };
  const notRuns = [values.outcomes, values.manifest, ...flagFiles].flatMap((f) => (f === undefined ? [] : [resolve(cwd, f)]));
  // A PATH that does not exist: refused, or with --lenient skipped and named as a file that cannot be read (as by `rank`).
  const found = discover(nodeReportFs, paths, (text, source) => parseLogText(text, 'auto', source), overrides, notRuns, values.lenient === true);
  if (found.trajectories.length === 0) {
    const first = found.skipped.find((x) => x.kind !== 'metadata') ?? found.skipped[0];
    const why = first ? `; e.g. ${first.path}: ${first.reason}` : '';
    throw new SteplensError('bad_input', `no trajectory found in ${positionals.join(', ')} (${found.files} candidate files, none a log in a supported format${why})`);
  }
  const naming: RunNamingInputs = { ...(table ? { table } : {}), ...(manifest ? { manifest } : {}), ...(values.model ? { model: values.model } : {}) };
  const warnings = manifest !== undefined && values.manifest !== undefined ? manifestWarnings(manifest, found, resolve(cwd, values.manifest)) : [];
  return { paths, found, ...(table ? { table } : {}), ...(manifest ? { manifest } : {}), naming, warnings };
}

/**
 * A manifest none of whose rows names a log found would silently leave every run unnamed: its `file` paths are
 * relative to the manifest's folder, not to where the command runs. (A manifest of more runs than PATH holds, the
 * calibration set's scored a folder at a time, names some: no warning.)
 */
function manifestWarnings(manifest: ReadonlyMap<string, ManifestEntry>, found: Discovery, file: string): string[] {
  const logs = new Set(found.trajectories.map((t) => t.path));
  const first = manifest.keys().next();
  if (first.done === true || [...manifest.keys()].some((p) => logs.has(p))) return [];
  return [
    `warning: --manifest ${file}: none of its ${manifest.size} rows names a log found in the paths given (e.g. ${first.value}); ` +
      `its "file" paths are relative to the manifest's folder (${dirname(file)})`,
  ];
}

/**
 * Names on stderr, one printable line each, every file that was skipped for a reason other than
 * being evaluation or task metadata, and every line or event skipped inside a log that was read.
 * Returns the exit code: 1 when a log was broken (unreadable file, skipped line or event) unless
 * `--lenient`; JSON in no log format is named but does not fail the run.
 */
export function reportCorpusInput(found: Discovery, lenient: boolean, stderr: (s: string) => void, warnings: readonly string[] = []): number {
  for (const w of warnings) stderr(`${printable(w)}\n`);
  for (const x of found.skipped) if (x.kind !== 'metadata') stderr(`${printable(`skipped ${x.path}: ${x.reason}`)}\n`);
  for (const p of found.problems) stderr(`${printable(`${p.path}: ${p.at}: ${p.message}`)}\n`);
  const broken = found.skipped.some((x) => x.kind === 'unreadable') || found.problems.length > 0;
  return broken && !lenient ? 1 : 0;
}
