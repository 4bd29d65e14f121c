/**
 * The instances of one log file as the CLI commands see them: an OpenHands `output.jsonl` holds one
 * trajectory per line, every other log one. `label` and `score` handle every instance (one result
 * each); `convert` and `replay` produce one stream, so a file with several needs `--instance ID`.
 */
import { statSync } from 'node:fs';
import { SteplensError } from '../errors.js';
import { parseLogText, type ParsedLog } from '../formats/index.js';
import type { Diagnostic, FormatName, ParseResult } from '../formats/types.js';
import { taskOf } from '../report/identity.js';
import { numberedSteps } from '../core/step-numbers.js';
import { noStepsMessage as noStepsText } from '../protocol/no-steps.js';
import { printable, readText } from '../text-files.js';

/** One trajectory of a file, with the name the CLI shows and `--instance` accepts. */
export interface Instance {
  /** The log's task id (an OpenHands `instance_id`), else `#N` (1-based position in the file). */
  id: string;
  parsed: ParseResult;
  /** Its raw document (what the format's `events()` splits into the raw events a live client sends). */
  document: unknown;
}

export interface LogFile {
  file: string;
  instances: Instance[];
  /** Problems of a multi-instance file itself (JSON lines that do not parse, each skipped); a one-run file's are its run's. */
  diagnostics: Diagnostic[];
}

/** The `--instance` flag shared by label, score, convert and replay. */
export const INSTANCE_OPTION = { instance: { type: 'string' } } as const;

/**
 * Ids: the task the instance names, `#N` without one, `task#N` when two instances name the same task. Steps are numbered
 * 0..n-1, as the server numbers them (report/step-numbers.ts), so every command names the steps the server names.
 */
function named(log: ParsedLog): Instance[] {
  const count = new Map<string, number>();
  for (const p of log.instances) if (p.meta.task !== undefined) count.set(p.meta.task, (count.get(p.meta.task) ?? 0) + 1);
  return log.instances.map((parsed, i) => {
    const task = parsed.meta.task;
    const id = task === undefined ? `#${i + 1}` : count.get(task)! > 1 ? `${task}#${i + 1}` : task;
    return { id, parsed: { ...parsed, steps: numberedSteps(parsed.steps) }, document: log.documents[i] };
  });
}

/**
 * A folder where a log file was expected: the error says what to give instead (`score DIR` said "is a directory"
 * only). `node:fs`'s sync stat: a run must load no promise-fs module (test/cli/bin-code-cache).
 */
async function readLogText(file: string): Promise<string> {
  let folder = false;
  try {
    folder = statSync(file).isDirectory();
  } catch {
    // Missing or unreadable: readText names what is wrong.
  }
  if (folder) throw new SteplensError('bad_input', `cannot read ${file}: is a directory (give the trajectory files in it; report, calibrate and train walk folders)`);
  return readText(file);
}

/** Reads and parses one log file into its instances; a file that cannot be read or parsed is a one-line error. */
export async function readLogFile(file: string, format: FormatName | 'auto'): Promise<LogFile> {
  const parsed = parseLogText(await readLogText(file), format, file);
  if (!parsed.ok) throw parsed.error;
  const instances = named(parsed.value);
  if (instances.length !== 1) return { file, instances, diagnostics: parsed.value.diagnostics };
  // One trajectory: the file's problems are its problems (and in its `--json` diagnostics); a log that
  // names no task is of the task its file name says, as `report` reads it (SWE-agent 0.x).
  const only = instances[0]!;
  const task = taskOf(file, only.parsed.meta);
  const meta = task === undefined ? only.parsed.meta : { ...only.parsed.meta, task };
  const id = task ?? only.id;
  return { file, instances: [{ ...only, id, parsed: { ...only.parsed, meta, diagnostics: [...parsed.value.diagnostics, ...only.parsed.diagnostics] } }], diagnostics: [] };
}

const idList = (log: LogFile) => log.instances.map((x) => x.id).join(', ');

/**
 * The instances a command works on: the one `--instance ID` names (an id or `#N`), else all of
 * them; with `one` (a command that writes one stream), a file holding several without
 * `--instance` is a usage error listing the ids.
 */
export function selectInstances(log: LogFile, instance: string | undefined, one: boolean): Instance[] {
  if (instance !== undefined) {
    const hit = log.instances.find((x, i) => x.id === instance || `#${i + 1}` === instance || String(i + 1) === instance);
    if (!hit) throw new SteplensError('usage', `--instance ${instance}: not in ${log.file} (it holds ${log.instances.length}: ${idList(log)})`);
    return [hit];
  }
  if (one && log.instances.length > 1) {
    throw new SteplensError('usage', `${log.file} holds ${log.instances.length} trajectories (${idList(log)}): choose one with --instance ID`);
  }
  return log.instances;
}

/** Prints the file's and the instances' diagnostics to stderr, one printable line each, naming file and instance. */
export function reportLogDiagnostics(log: LogFile, chosen: readonly Instance[], stderr: (s: string) => void): void {
  for (const d of log.diagnostics) stderr(`${printable(`${log.file}: ${d.at}: ${d.message}`)}\n`);
  const several = log.instances.length > 1;
  for (const x of chosen) {
    for (const d of x.parsed.diagnostics) stderr(`${printable(`${log.file}: ${several ? `instance ${x.id}: ` : ''}${d.at}: ${d.message}`)}\n`);
  }
}

/**
 * Why an instance with no step is not scored: `score` and `replay` refuse such a run rather than give it a 0 and a
 * tier, as `POST /v1/score` does (protocol/no-steps.ts); names the instance in a file of several, and the first
 * diagnostic (often the cause).
 */
export function noStepsMessage(log: LogFile, x: Instance): string {
  const where = log.instances.length > 1 ? `${log.file}: instance ${x.id}` : log.file;
  return noStepsText(where, x.parsed.diagnostics[0]);
}

/** Exit code after printing: 1 when anything read was skipped (file or chosen instances), unless `--lenient`. */
export function logExitCode(log: LogFile, chosen: readonly Instance[], lenient: boolean): number {
  if (lenient) return 0;
  return log.diagnostics.length > 0 || chosen.some((x) => x.parsed.diagnostics.length > 0) ? 1 : 0;
}
