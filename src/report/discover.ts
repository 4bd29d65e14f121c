/**
 * Input discovery: walks the given paths, keeps the files a log parser reads
 * as trajectories, and records every other file with the reason it was
 * skipped: evaluation or task metadata (expected beside logs), JSON that is
 * no log in a supported format, or a file that cannot be read as a log at all
 * (empty, truncated, binary, not JSON). Problems inside kept logs (bad lines,
 * bad events) are kept too, so the command can name them.
 */
import { join } from 'node:path';
import { SteplensError, type Result } from '../errors.js';
import type { ParsedLog } from '../formats/text-input.js';
import type { ReportFs } from './fs-port.js';
import { identify, type IdentityOverrides } from './identity.js';
import { isAuxiliaryDoc } from './outcome-docs.js';
import { compareRunKeys } from '../core/run-order.js';
import { numberedSteps } from '../core/step-numbers.js';
import type { LoadedTrajectory, SkippedFile } from './types.js';

/** Parses one file's text into its trajectories (several for multi-instance files) and the file's own problems. */
export type ParseFile = (text: string, source: string) => Result<ParsedLog, SteplensError>;

const EXTENSIONS = /\.(json|jsonl|traj)(\.gz)?$/i;

/** A problem inside a kept log: a line or event that was skipped. */
export interface InputProblem {
  path: string;
  /** Where in the file: `line 12`, `instance X: event 40`, ... */
  at: string;
  message: string;
}

export interface Discovery {
  files: number;
  trajectories: LoadedTrajectory[];
  skipped: SkippedFile[];
  problems: InputProblem[];
}

/** Whether a file is one the command's flags name (`--manifest`, `--outcomes`, `--out`, ...): no trajectory. */
type NamedByFlag = (path: string) => boolean;

/** Matches by absolute path, and by device and inode where the fs knows them (a link or another spelling of the path). */
function namedByFlag(fs: ReportFs, files: readonly string[]): NamedByFlag {
  if (files.length === 0) return () => false;
  const paths = new Set(files);
  const ids = new Set(files.map((f) => fs.identity?.(f)).filter((id): id is string => id !== undefined));
  return (p) => paths.has(p) || (ids.size > 0 && ids.has(fs.identity?.(p) ?? ''));
}

function walk(fs: ReportFs, dir: string, out: string[], named: NamedByFlag): void {
  const entries = (fs.list(dir) ?? []).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.dir) walk(fs, p, out, named);
    else if (EXTENSIONS.test(e.name) && !named(p)) out.push(p);
  }
}

/**
 * All candidate files under the inputs, in one order whatever the order of the inputs (`compareRunKeys`: the order a
 * walk of one folder lists them in), so the same runs give the same report, calibration and training however they
 * were named; throws bad_input for a missing path. A walk passes over `notRuns` (absolute paths): the files the
 * command's own flags name, such as the manifest kept beside the runs it describes, which are no trajectories and
 * would otherwise be named as skipped on every run; a file given as PATH itself is still read. With `missing`, a
 * path that does not exist is added there instead (`--lenient`: skipped and named, as a file that cannot be read).
 */
export function candidateFiles(fs: ReportFs, paths: readonly string[], notRuns: readonly string[] = [], missing?: string[]): string[] {
  const out: string[] = [];
  const named = namedByFlag(fs, notRuns);
  for (const p of paths) {
    const kind = fs.kind(p);
    if (kind === undefined && missing !== undefined) missing.push(p);
    else if (kind === undefined) throw new SteplensError('bad_input', `${p}: no such file or directory`);
    // A named FIFO or device is a candidate too: reading it says why it is skipped.
    else if (kind === 'dir') walk(fs, p, out, named);
    else out.push(p);
  }
  return [...new Set(out)].sort(compareRunKeys);
}

function auxiliary(text: string): boolean {
  if (text.length > 5_000_000) return false;
  try {
    return isAuxiliaryDoc(JSON.parse(text));
  } catch {
    return false;
  }
}

/** The reason without the `cannot read PATH: ` / `PATH: ` prefix the one-line errors carry (the report names the path itself). */
function reasonOf(message: string, path: string): string {
  return message.startsWith(`cannot read ${path}: `) ? message.slice(`cannot read ${path}: `.length) : message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
}

/**
 * Reads and parses every candidate file (`notRuns`: as for {@link candidateFiles}). A path that does not exist is
 * refused (bad_input), or with `skipMissing` (`--lenient`) skipped as unreadable, as `rank --lenient` skips it.
 */
export function discover(fs: ReportFs, paths: readonly string[], parse: ParseFile, overrides: IdentityOverrides = {}, notRuns: readonly string[] = [], skipMissing = false): Discovery {
  const missing: string[] | undefined = skipMissing ? [] : undefined;
  const files = candidateFiles(fs, paths, notRuns, missing);
  const trajectories: LoadedTrajectory[] = [];
  const skipped: SkippedFile[] = (missing ?? []).map((path) => ({ path, reason: 'no such file or directory', kind: 'unreadable' }));
  const problems: InputProblem[] = [];
  // A run reached twice (a symlink to a log in the same walk) would be counted, scored and ranked twice.
  const firstPath = new Map<string, string>();
  for (const path of files) {
    const identity = fs.identity?.(path);
    const first = identity !== undefined ? firstPath.get(identity) : undefined;
    if (first !== undefined) {
      skipped.push({ path, reason: `the same file as ${first}, read once`, kind: 'duplicate' });
      continue;
    }
    if (identity !== undefined) firstPath.set(identity, path);
    const text = fs.readLog(path);
    if (!text.ok) {
      skipped.push({ path, reason: reasonOf(text.error.message, path), kind: 'unreadable' });
      continue;
    }
    if (auxiliary(text.value)) {
      skipped.push({ path, reason: 'evaluation or task metadata', kind: 'metadata' });
      continue;
    }
    const parsed = parse(text.value, path);
    if (!parsed.ok) {
      // JSON in no supported format is not a broken log; text that is not JSON (or empty) is.
      const kind = parsed.error.code === 'unknown_format' ? 'not_a_log' : 'unreadable';
      skipped.push({ path, reason: reasonOf(parsed.error.message, path), kind });
      continue;
    }
    const log = parsed.value;
    for (const d of log.diagnostics) problems.push({ path, at: d.at, message: d.message });
    const several = log.instances.length > 1;
    log.instances.forEach((r, i) => {
      const id = several ? `${path}#${i + 1}` : path;
      for (const d of r.diagnostics) problems.push({ path, at: several ? `instance ${r.meta.task ?? `#${i + 1}`}: ${d.at}` : d.at, message: d.message });
      trajectories.push({ id, path, format: r.format, meta: r.meta, steps: numberedSteps(r.steps), ...identify(path, r.meta, r.format, overrides) });
    });
  }
  return { files: files.length, trajectories, skipped, problems };
}
