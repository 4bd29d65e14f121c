/** `steplens build-pta --task ID --out PTA.json FILE...`: build a task's PTA from passing trajectories. */
import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildPta, formatPtaSummary, ptaToJson, summarisePta } from '../../core/pta/index.js';
import { labelSteps } from '../../core/state-builder.js';
import type { State } from '../../core/types.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { formatOption, LENIENT_OPTION } from '../input.js';
import { logExitCode, readLogFile, reportLogDiagnostics, type Instance, type LogFile } from '../instances.js';
import { prepareOutputFile, writeOutputFile } from '../output-files.js';
import { readOutcomeTables } from '../corpus-input.js';
import { checkReferenceOutcome, PTA_OUTCOME_OPTIONS } from '../pta-outcomes.js';

/** The runs of `task` in a file: all of a one-run file (warned about when it names another task), the matching instances of an `output.jsonl`. */
function runsOfTask(log: LogFile, task: string, warn: (s: string) => void): Instance[] {
  if (log.instances.length === 1) {
    const named = log.instances[0]!.parsed.meta.task;
    if (named !== undefined && named !== task) warn(`warning: ${log.file} is a run of task ${named}, not of --task ${task}; used as a reference anyway\n`);
    return log.instances;
  }
  const hits = log.instances.filter((x) => x.parsed.meta.task === task);
  if (hits.length === 0) {
    throw new SteplensError('bad_input', `${log.file} holds ${log.instances.length} trajectories, none of task ${task} (${log.instances.map((x) => x.id).join(', ')})`);
  }
  return hits;
}

/**
 * Drops files named twice (same path, or the same bytes under another name), with a warning for each. A folder or a
 * missing file is named first: the count of references would otherwise be the error (review s42: "got 1" for a folder).
 */
async function distinctFiles(files: readonly string[], cwd: string, warn: (s: string) => void): Promise<string[]> {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const file of files) {
    const info = await stat(resolve(cwd, file)).catch((e: NodeJS.ErrnoException) => e);
    if (info instanceof Error && info.code === 'ENOENT') throw new SteplensError('bad_input', `cannot read ${file}: no such file`);
    if (!(info instanceof Error) && info.isDirectory())
      throw new SteplensError('usage', `${file} is a directory: build-pta takes the trajectory files of the task (e.g. ${join(file, '*', '*.traj')})`);
    let key: string;
    try {
      key = await realpath(resolve(cwd, file));
    } catch {
      key = resolve(cwd, file);
    }
    const first = seen.get(key);
    if (first !== undefined) {
      warn(`warning: ${file} is the same file as ${first}: used once\n`);
      continue;
    }
    seen.set(key, file);
    out.push(file);
  }
  return out;
}

const command: Command = {
  name: 'build-pta',
  usage:
    'usage: steplens build-pta --task ID --out PTA.json FILE... [--format F] [--min-refs N] [--outcomes FILE] [--manifest FILE] [--json] [--lenient]\n' +
    '  FILE...      passing trajectories of the task (at least --min-refs, default 2; may be gzipped): a log does not\n' +
    '               say whether its patch passed, so a run is refused only when --outcomes, --manifest or an evaluation\n' +
    '               file beside it (as report reads them) says it failed; nothing else is checked: give passing runs only;\n' +
    '               a file named twice, or two copies of one run, is used once (with a warning);\n' +
    '               from an OpenHands output.jsonl, the instances of --task are used',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        task: { type: 'string' },
        out: { type: 'string' },
        format: { type: 'string' },
        'min-refs': { type: 'string', default: '2' },
        json: { type: 'boolean', default: false },
        ...PTA_OUTCOME_OPTIONS,
        ...LENIENT_OPTION,
      },
    });
    if (!values.task) throw new SteplensError('usage', '--task ID is required');
    if (!values.out) throw new SteplensError('usage', '--out PTA.json is required');
    const task = values.task;
    const minRefs = Number(values['min-refs']);
    if (!Number.isInteger(minRefs) || minRefs < 1) throw new SteplensError('usage', `--min-refs must be a positive integer (got '${values['min-refs']}')`);
    prepareOutputFile(resolve(io.cwd, values.out), values.out);
    const naming = readOutcomeTables(values, io.cwd);
    const warn = (s: string) => io.stderr(s);
    const files = await distinctFiles(positionals, io.cwd, warn);
    if (files.length < minRefs) {
      const got = positionals.length > files.length ? `${files.length} distinct of ${positionals.length} named` : String(files.length);
      throw new SteplensError('usage', `a PTA needs at least ${minRefs} passing trajectories (got ${got})`);
    }
    const format = formatOption(values.format);
    const analyzers = defaultAnalyzers();
    const references: State[][] = [];
    const seenRuns = new Map<string, string>();
    const exits: number[] = [];
    for (const file of files) {
      const log = await readLogFile(file, format);
      const runs = runsOfTask(log, task, warn);
      reportLogDiagnostics(log, runs, io.stderr);
      exits.push(logExitCode(log, runs, values.lenient));
      for (const x of runs) {
        const where = log.instances.length > 1 ? `${file} (${x.id})` : file;
        if (x.parsed.steps.length === 0) throw new SteplensError('bad_input', `${where}: no steps to build a reference from`);
        checkReferenceOutcome(file, where, x, io.cwd, naming, warn);
        const digest = createHash('sha256').update(JSON.stringify(x.parsed.steps)).digest('hex');
        const twin = seenRuns.get(digest);
        if (twin !== undefined) {
          warn(`warning: ${where} is the same run as ${twin} (identical steps): used once\n`);
          continue;
        }
        seenRuns.set(digest, where);
        references.push(labelSteps(x.parsed.steps, analyzers).map((s) => s.state));
      }
    }
    if (references.length < minRefs) {
      throw new SteplensError('usage', `a PTA needs at least ${minRefs} distinct passing trajectories (got ${references.length})`);
    }
    const pta = buildPta(task, references);
    await writeOutputFile(resolve(io.cwd, values.out), ptaToJson(pta), values.out);
    const summary = summarisePta(pta);
    if (values.json) {
      io.stdout(`${JSON.stringify({ task: pta.task, references: summary.references, nodes: summary.nodes, paths: summary.paths, version: pta.version })}\n`);
    } else {
      io.stdout(formatPtaSummary(summary));
      io.stdout(`wrote ${values.out}\n`);
    }
    return Math.max(0, ...exits);
  },
};

export default command;
