/** `steplens score FILE... [--pta PTA.json] [--passed|--failed] [--json | --jsonl]`: score trajectories. */
import { parseArgs } from 'node:util';
import { priorTerms, type PriorTerm } from '../../core/composite.js';
import { DEFAULT_CONFIG } from '../../core/config.js';
import { createScorer } from '../../core/scorer.js';
import { holdsPath } from '../../core/pta/index.js';
import type { Reference, TrajectoryReport } from '../../core/scorer-api.js';
import type { Diagnostic } from '../../formats/types.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { isSteplensError, SteplensError } from '../../errors.js';
import type { CliIO, Command } from '../command.js';
import { formatOption, LENIENT_OPTION } from '../input.js';
import { INSTANCE_OPTION, logExitCode, noStepsMessage, readLogFile, reportLogDiagnostics, selectInstances } from '../instances.js';
import { chooseReference } from '../references.js';
import { analyzersFor } from '../../core/scope-free.js';
import { pushInSlices } from '../../job-slices.js';
import { humanReport, scoreDocument, taskMismatch } from '../score-text.js';
import { forecastFileArg } from '../../package-files.js';
import { readConfigFile, readForecastFile, readPolicyFile } from '../../settings-files.js';
import type { ForecastFile } from '../../core/forecast/model.js';
import { inSampleWarning } from '../in-sample.js';
import { runFingerprint, trainedRunSet } from '../../core/forecast/fingerprint.js';
import { forecastSource, runForecast, SOURCE_OPTIONS, type ForecastSource } from '../forecast-source.js';
import type { Policy } from '../../core/policy.js';
import type { ScoringConfig } from '../../core/config.js';
import { configureInputLimit, INPUT_LIMIT_ENV, printable } from '../../text-files.js';
import { jobCount, runFilesInWorkers, serveFiles, workerSetup, type FileOutput } from '../file-workers.js';

export { scoreDocument };

/** What every file of one `score` command is scored with (read once, before the first file). */
interface Setup {
  reference: Reference;
  ptaFile: string;
  policy: Policy | undefined;
  config: ScoringConfig | undefined;
  forecasts: ForecastFile | undefined;
  /** The fingerprints of the runs the forecaster was trained on (in-sample.ts). */
  trained: ReadonlySet<string> | undefined;
  /** `--agent` / `--model`: the source whose forecast model scores every run (else each log's own). */
  source: ForecastSource;
  passed: boolean | undefined;
  task: string | undefined;
}

/** One instance of a file: its report, or (no step) why it has none. */
type InstanceResult =
  | {
      report: TrajectoryReport;
      prior: PriorTerm[] | undefined;
      task: string | undefined;
      instance: string;
      diagnostics: Diagnostic[];
      /** Whether the forecaster was trained on this run (undefined: no forecast, or one listing no runs). */
      pPassInSample: boolean | undefined;
    }
  | { report?: undefined; instance: string; noSteps: string };

/**
 * Scores every chosen trajectory of one file; returns the results in the file's order and the file's exit code. With
 * `jsonl`, an instance with no step is a result (its own error line), not a line of stderr.
 */
async function scoreFile(file: string, setup: Setup, options: { format: string | undefined; instance: string | undefined; lenient: boolean; jsonl: boolean }, io: CliIO) {
  const log = await readLogFile(file, formatOption(options.format));
  const selected = selectInstances(log, options.instance, false);
  const several = log.instances.length > 1;
  reportLogDiagnostics(log, selected, io.stderr);
  // A run with no step has no score (`report` lists it as not scored): not a 0 and a tier (the server's `final`, and so `POST /v1/score`, give it one).
  // A file of one run is then an error; in a file of several, that instance is named and the others are scored.
  const empty = selected.filter((x) => x.parsed.steps.length === 0);
  if (empty.length === selected.length && empty.length > 0 && !(options.jsonl && several)) throw new SteplensError('bad_input', noStepsMessage(log, empty[0]!));
  if (!options.jsonl) for (const x of empty) io.stderr(`${printable(noStepsMessage(log, x))}\n`);
  const { reference, policy, config, forecasts } = setup;
  // Against the prior no output reads a state's scope: the files viewed are not parsed to find it (scope-free.ts).
  const analyzers = analyzersFor(reference, defaultAnalyzers());
  const results: InstanceResult[] = [];
  for (const x of selected) results.push(await scoreInstance(x));
  const code = Math.max(logExitCode(log, selected, options.lenient), empty.length > 0 && !options.lenient ? 1 : 0);
  return { results, several, fileDiagnostics: log.diagnostics, code };

  async function scoreInstance(x: (typeof selected)[number]): Promise<InstanceResult> {
    if (x.parsed.steps.length === 0) return { instance: x.id, noSteps: noStepsMessage(log, x) };
    const runTask = setup.task ?? x.parsed.meta.task;
    const warning = taskMismatch(file, x, runTask, setup.task !== undefined, setup.ptaFile, reference);
    if (warning) io.stderr(`${warning}\n`);
    const forecast = runForecast(forecasts, setup.source, x.parsed.meta);
    const inSample = forecast !== undefined ? inSampleWarning(setup.trained, [{ name: several ? `${file} (${x.id})` : file, steps: x.parsed.steps }]) : undefined;
    if (inSample !== undefined) io.stderr(inSample);
    const pPassInSample = forecast !== undefined && setup.trained !== undefined ? setup.trained.has(runFingerprint(x.parsed.steps)) : undefined;
    const scorer = createScorer({ reference, analyzers, ...(forecast ? { forecast } : {}), ...(policy ? { policy } : {}), ...(config ? { config } : {}) });
    // In slices with turns of the loop between them: a parse tree's native memory is freed by its wrapper's finalizer,
    // which runs only on a turn (T119: 1,500 one-line edits of a 50 KB file held 2.6 GB when pushed in one go).
    await pushInSlices(scorer, x.parsed.steps);
    const report: TrajectoryReport = scorer.report(setup.passed);
    // Against the prior: the terms the total is made of, with the weights in effect (--config or the defaults).
    const signals = scorer.priorSignals();
    const prior = signals !== undefined ? priorTerms((config ?? DEFAULT_CONFIG).priorWeights, report.score.coh, report.score.temp, signals) : undefined;
    // As rank and report warn: a run the PTA was built from matches one of its paths step for step, so it scores high.
    if (reference.kind === 'pta' && holdsPath(reference.pta, scorer.states()))
      io.stderr(`warning: ${setup.ptaFile} holds the path of ${file}${several ? ` (${x.id})` : ''} (a reference it was built from): scored optimistically against it\n`);
    return { report, prior, task: runTask ?? (reference.kind === 'pta' ? reference.pta.task : undefined), instance: x.id, diagnostics: x.parsed.diagnostics, pPassInSample };
  }
}

/** The `--jsonl` lines of the lines of a file of several runs that could not be read (no instance to name). */
function lostLines(file: string, skipped: readonly Diagnostic[]): string[] {
  return skipped.map((d) => `${JSON.stringify({ file, at: d.at, error: { code: 'bad_input', message: `${file}: ${d.at}: ${d.message}` } })}\n`);
}

const scoredOnly = (results: readonly InstanceResult[]) => results.flatMap((r) => (r.report !== undefined ? [r] : []));

/** The `--jsonl` line of a file that could not be scored, naming it. */
function errorLine(file: string, error: unknown): string {
  const code = isSteplensError(error) ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  return `${JSON.stringify({ file, error: { code, message } })}\n`;
}

const OPTIONS = {
  pta: { type: 'string' },
  passed: { type: 'boolean', default: false },
  failed: { type: 'boolean', default: false },
  format: { type: 'string' },
  'prior-dir': { type: 'string' },
  policy: { type: 'string' },
  config: { type: 'string' },
  forecast: { type: 'string' },
  ...SOURCE_OPTIONS,
  task: { type: 'string' },
  json: { type: 'boolean', default: false },
  jsonl: { type: 'boolean', default: false },
  jobs: { type: 'string' },
  ...INSTANCE_OPTION,
  ...LENIENT_OPTION,
} as const;

const parse = (args: string[]) => parseArgs({ args, allowPositionals: true, options: OPTIONS });
type Values = ReturnType<typeof parse>['values'];

/** Reads what every FILE is scored with: before any FILE, so a bad flag or settings file fails the whole command with one line. */
async function readSetup(values: Values): Promise<Setup> {
  const forecasts = values.forecast !== undefined ? await readForecastFile(forecastFileArg(values.forecast)) : undefined;
  return {
    reference: await chooseReference(values.pta, values['prior-dir']),
    ptaFile: values.pta ?? '',
    passed: values.passed ? true : values.failed ? false : undefined,
    policy: values.policy !== undefined ? await readPolicyFile(values.policy) : undefined,
    config: values.config !== undefined ? await readConfigFile(values.config) : undefined,
    forecasts,
    trained: trainedRunSet(forecasts?.trainedRuns),
    source: forecastSource(values),
    task: values.task,
  };
}

/**
 * What one FILE prints and its exit code. `alone` (one FILE without --jsonl): a failure is thrown, to be the
 * command's one-line error; otherwise it is a line of the output (`--jsonl`) or of stderr, exit 1.
 */
async function fileOutput(file: string, setup: Setup, values: Values, alone: boolean, io: CliIO): Promise<number> {
  let scored: Awaited<ReturnType<typeof scoreFile>>;
  try {
    scored = await scoreFile(file, setup, { format: values.format, instance: values.instance, lenient: values.lenient, jsonl: values.jsonl }, io);
  } catch (error) {
    if (alone) throw error;
    if (values.jsonl) io.stdout(errorLine(file, error));
    else io.stderr(`steplens score: ${printable(error instanceof Error ? error.message : String(error))}\n`);
    // As `report`: with --lenient a file that could not be scored is said (its line) and does not fail the command.
    return values.lenient ? 0 : 1;
  }
  const { results } = scored;
  if (values.jsonl) {
    for (const r of results) {
      const head = { file, ...(scored.several ? { instance: r.instance } : {}) };
      if (r.report === undefined) {
        io.stdout(`${JSON.stringify({ ...head, error: { code: 'bad_input', message: r.noSteps } })}\n`);
        continue;
      }
      const skipped = [...(scored.several ? [] : scored.fileDiagnostics), ...r.diagnostics];
      io.stdout(`${JSON.stringify({ ...head, ...scoreDocument(r.report, r.task, r.prior, r.pPassInSample), ...(skipped.length > 0 ? { diagnostics: skipped } : {}) })}\n`);
    }
    // In a file of several runs a line that could not be read is no instance: a line of its own says it was lost.
    if (scored.several) for (const line of lostLines(file, scored.fileDiagnostics)) io.stdout(line);
  } else if (values.json) {
    const docs = scoredOnly(results).map((r) => scoreDocument(r.report, r.task, r.prior, r.pPassInSample));
    io.stdout(`${JSON.stringify(docs.length === 1 ? docs[0] : docs)}\n`);
  } else {
    const text = scoredOnly(results)
      .map((r) => humanReport(r.report, r.task, setup.passed, r.prior, r.pPassInSample))
      .join('\n');
    io.stdout(alone ? text : `== ${printable(file)}\n${text}\n`);
  }
  return scored.code;
}

/** The output of a FILE as text (a worker thread's answer): what {@link fileOutput} writes, captured. */
async function capturedOutput(file: string, setup: Setup, values: Values): Promise<FileOutput> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), stderrIsTTY: false, cwd: process.cwd(), env: {} };
  try {
    const code = await fileOutput(file, setup, values, false, io);
    return { stdout, stderr, code };
  } catch (error) {
    return failedOutput(values, file, error instanceof Error ? error.message : String(error), stdout, stderr);
  }
}

/** A FILE that failed outside scoring (its worker died): a line naming it, as any FILE that cannot be scored. */
function failedOutput(values: Values, file: string, why: string, stdout = '', stderr = ''): FileOutput {
  const error = new SteplensError('internal', `${file}: ${why}`);
  return values.jsonl ? { stdout: stdout + errorLine(file, error), stderr, code: 1 } : { stdout, stderr: `${stderr}steplens score: ${printable(error.message)}\n`, code: 1 };
}

/** What a worker thread gets: the command's arguments (it reads the same setup) and the input limit's variable. */
interface WorkerData {
  args: string[];
  env: Record<string, string | undefined>;
}

const command: Command = {
  name: 'score',
  usage:
    'usage: steplens score FILE... [--pta PTA.json] [--passed | --failed] [--format F] [--prior-dir DIR] [--instance ID] [--task ID]\n' +
    '                      [--policy POLICY.json] [--config CONFIG.json] [--forecast FORECAST.json [--agent A] [--model M]] [--json | --jsonl] [--jobs N] [--lenient]\n' +
    '  without --pta the trajectory is scored reference-free against the prior pooled from the bundled references\n' +
    "  (--prior-dir DIR: from the PTAs in DIR instead, its *.json, e.g. a server's --data folder)\n" +
    '  FILE may be gzipped; a file holding several trajectories (OpenHands output.jsonl) gives one report each\n' +
    '  (--json: an array), or only the one --instance ID names\n' +
    '  --json: one JSON document (one FILE); --jsonl: one JSON line per trajectory of every FILE, with "file" (and\n' +
    '  "instance" in a file of several); a FILE that cannot be scored is a line {"file", "error": {"code", "message"}}\n' +
    '  and the others are still scored; in a FILE of several, an instance with no step is {"file", "instance", "error"} and\n' +
    '  a line that could not be read {"file", "at", "error"}; exit 1 when any FILE failed or had lines skipped (unless --lenient)\n' +
    '  --jobs N: FILEs scored on N threads (auto: one per core; default 1), printed in the order given, as one thread prints them\n' +
    "  --task: the run's task when the log names none or names it differently (a PTA of another task is warned about)\n" +
    '  --policy: early-stop thresholds (partial, as in start.policy or written by calibrate --out)\n' +
    '  --config: scoring weights, tier thresholds, tau, ... (partial override of the defaults)\n' +
    '  --forecast: outcome forecast model (steplens train --out; `bundled`: the one shipped, trained on public runs): adds the forecast P(pass) of the whole trajectory\n' +
    "  --agent A, --model M: the run's agent and model (its source), which choose its model in the forecast file, as POST /v1/score's\n" +
    "  agent and model do; default: what the log names (SWE-agent 0.x names no model: --agent 'SWE-agent 0.x' --model gpt-4)",
  async run(args, io) {
    const { values, positionals } = parse(args);
    if (positionals.length === 0) throw new SteplensError('usage', 'expected a FILE (or several)');
    if (values.json && values.jsonl) throw new SteplensError('usage', '--json and --jsonl are exclusive');
    if (values.json && positionals.length > 1) throw new SteplensError('usage', `--json prints one document, for one FILE (got ${positionals.length}): use --jsonl for one JSON line per trajectory`);
    if (values.passed && values.failed) throw new SteplensError('usage', '--passed and --failed are exclusive');
    formatOption(values.format);
    const jobs = jobCount(values.jobs, positionals.length);
    const setup = await readSetup(values);
    // One FILE without --jsonl: as ever, a failure is the command's one-line error.
    const alone = positionals.length === 1 && !values.jsonl;
    const data: WorkerData = { args, env: { [INPUT_LIMIT_ENV]: io.env[INPUT_LIMIT_ENV] } };
    const threaded = await runFilesInWorkers({
      entry: import.meta.url,
      command: 'score',
      data,
      files: positionals,
      jobs,
      write: (out) => {
        if (out.stderr !== '') io.stderr(out.stderr);
        if (out.stdout !== '') io.stdout(out.stdout);
      },
      local: (file) => capturedOutput(file, setup, values),
      failed: (file, why) => failedOutput(values, file, why),
    });
    if (threaded !== undefined) return threaded;
    let code = 0;
    for (const file of positionals) code = Math.max(code, await fileOutput(file, setup, values, alone, io));
    return code;
  },
};

/** In a worker thread of `score --jobs`: the same setup, then each FILE the main thread sends. */
const worker = workerSetup<WorkerData>('score');
if (worker !== undefined) {
  const limit = configureInputLimit(worker.env);
  if (!limit.ok) throw limit.error;
  const { values } = parse(worker.args);
  const setup = readSetup(values);
  serveFiles(async (file) => capturedOutput(file, await setup, values));
}

export default command;
