/** `steplens report [--outcomes FILE] [--manifest FILE] [--out DIR] [--json] PATH...`: the corpus report. */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SteplensError } from '../../errors.js';
import { escapeControl } from '../../printable.js';
import { buildReport } from '../../report/build-report.js';
import { MIN_RANKED_RUNS } from '../../report/models.js';
import { nodeReportFs } from '../../report/node-fs.js';
import { reportCharts } from '../../report/render/charts.js';
import { csvTable } from '../../report/render/format-table.js';
import { htmlReport } from '../../report/render/html.js';
import { markdownReport, terminalSummary } from '../../report/render/summary.js';
import { allTables } from '../../report/render/all-tables.js';
import type { CorpusReport } from '../../report/types.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import type { CliIO, Command } from '../command.js';
import { CORPUS_OPTIONS, readCorpusInput, reportCorpusInput } from '../corpus-input.js';
import { makeDirsSync } from '../../store/make-dirs.js';
import { chooseReference, externalReferences, referenceFolderArgs } from '../references.js';
import { forecastFileArg } from '../../package-files.js';
import { readConfigFile, readForecastFile } from '../../settings-files.js';
import { intFlag } from '../int-flag.js';
import { RANK_MODEL_OPTION, RANK_MODEL_USAGE, rankModelOption } from '../rank-model.js';

/** A stderr progress bar that shows only on a terminal (`io.status`) and only once the work has taken over a second. */
function progress(io: CliIO): { tick: (done: number, total: number) => void; end: () => void } {
  const start = Date.now();
  let shown = false;
  return {
    tick(done, total) {
      if (!io.status || Date.now() - start < 1000) return;
      shown = true;
      const width = 30;
      const filled = Math.round((width * done) / Math.max(1, total));
      io.status(`scoring [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    },
    end() {
      if (shown) io.status?.('');
    },
  };
}

/** Writes the report's documents; log text in them is escaped as on the terminal (`cat report.md` is a terminal too). */
function writeOutputs(dir: string, report: CorpusReport): string[] {
  const put = (file: string, text: string) => writeFileSync(join(dir, file), escapeControl(text));
  try {
    makeDirsSync(dir);
    const charts = reportCharts(report);
    for (const c of charts) put(c.file, c.svg);
    put(
      'report.md',
      markdownReport(
        report,
        charts.map((c) => c.file),
      ),
    );
    put('report.html', htmlReport(report, charts));
    put('report.json', `${JSON.stringify(report, null, 2)}\n`);
    const tables = allTables(report);
    for (const t of tables) put(`${t.name}.csv`, csvTable(t));
    return ['report.md', 'report.html', 'report.json', ...tables.map((t) => `${t.name}.csv`), ...charts.map((c) => c.file)];
  } catch (e) {
    throw new SteplensError('bad_input', `cannot write to --out ${dir}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

const command: Command = {
  name: 'report',
  usage:
    'usage: steplens report [--outcomes FILE] [--manifest FILE] [--out DIR] [--json] [--references DIR]... [--bundled] [--forecast FILE [--rank-model end]]\n' +
    '                       [--seed N] [--min-runs N] [--by-reference] [--failing-reference matched|all] [--config CONFIG.json]\n' +
    '                       [--model NAME] [--run NAME]\n' +
    '                       [--lenient] PATH...\n' +
    '  PATH: trajectory files or folders (walked recursively, .json/.jsonl/.traj, gzipped or not; evaluation JSON\n' +
    "        is recognised and skipped, and so are the files this command's flags name, e.g. --manifest); every\n" +
    '        other skipped file is named on stderr with its reason, and an\n' +
    '        unreadable file or a skipped line or event makes the exit code 1 unless --lenient; a PATH that does not\n' +
    '        exist stops it unless --lenient, which skips it as unreadable (as rank --lenient)\n' +
    '  outcomes: SWE-bench report.json / results.json / <model>.<run>.json found near the trajectories,\n' +
    '            or --outcomes FILE (CSV with task,outcome[,run,model,agent] or JSON Lines with the same keys; a row\n' +
    '            that names a model or agent names the runs it matches), or --manifest FILE (JSON Lines\n' +
    "            {file, task, agent, model, resolved}; file relative to the manifest's folder): runs are named the\n" +
    '            same way by report, calibrate and train\n' +
    '  --out DIR writes report.md, report.html (self-contained: tables and charts inline), report.json, one CSV per table\n' +
    '            and SVG charts; --json prints the JSON only\n' +
    '  scoring: every run with a step is scored: a passing one against a PTA of the OTHER passing runs of its task in\n' +
    '           PATH, any other against one of those PTAs in turn, so every run meets a reference of the same size\n' +
    '           (--failing-reference all: against a PTA of all of them, the older rule; a PTA needs 2 references);\n' +
    "           else against its task's PTA in\n" +
    "  --references DIR  a folder of stored PTAs (<task>.json, e.g. a server's --data folder; repeatable: the first\n" +
    '           folder holding the task wins) or --bundled (the PTAs bundled with steplens, data/example/); else\n' +
    '           reference-free against the prior pooled from the bundled references, as `score` and the server do.\n' +
    '           Column reference_kind says which (in-folder, external, reference-free); a run that helped build an\n' +
    '           external PTA scores optimistically against it (column holds_run, a warning)\n' +
    '  --by-reference  also the models, separation and best-of-N tables (and the charts) per reference kind\n' +
    '  --config: scoring weights, tier thresholds, tau, ... (partial override of the defaults), as score and serve take it\n' +
    '  --forecast FILE  outcome forecaster (steplens train --out; `bundled`: the shipped one): each run gets its P(pass), with its separation and best-of-N;\n' +
    '           runs it was trained on (the file lists them by fingerprint) are counted and named in a warning: their pPass is in-sample\n' +
    RANK_MODEL_USAGE +
    '  statistics: n beside every figure; pass rates with a Wilson 95 % interval, mean quality, AUROCs and best-of-N\n' +
    '           with a percentile bootstrap 95 % interval (1,000 draws, --seed N, default 1); separation within source\n' +
    '           (the headline), within task and pooled beside source-only (docs/method.md section 16); the multi-trial\n' +
    '           metrics with intervals over tasks (Wilson, or design effect, PCR by bootstrap; none under 5 tasks, section 13)\n' +
    '  --min-runs N  fewest runs behind a rank (default 10, at least 2); sources whose intervals overlap share a rank ("2=")\n' +
    '  --model / --run override the model and run names read from the logs and folder names\n' +
    '  task and model come from the log (or its evaluation, --outcomes or --manifest); a run nothing names is listed as such',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        ...CORPUS_OPTIONS,
        out: { type: 'string' },
        json: { type: 'boolean', default: false },
        references: { type: 'string', multiple: true },
        bundled: { type: 'boolean', default: false },
        forecast: { type: 'string' },
        ...RANK_MODEL_OPTION,
        seed: { type: 'string' },
        'min-runs': { type: 'string' },
        'by-reference': { type: 'boolean', default: false },
        'failing-reference': { type: 'string', default: 'matched' },
        config: { type: 'string' },
      },
    });
    const failingReference = values['failing-reference'];
    if (failingReference !== 'matched' && failingReference !== 'all') throw new SteplensError('usage', `--failing-reference must be matched or all, got '${failingReference}'`);
    const seed = intFlag(values.seed, '--seed', 1, 0);
    const minRuns = intFlag(values['min-runs'], '--min-runs', MIN_RANKED_RUNS, 2, ' (one run has no interval to tell sources apart)');
    // The walk passes over the command's own files: a report written into PATH (--out) is not read back as a run.
    const ownFiles = [values.forecast !== undefined ? forecastFileArg(values.forecast) : undefined, values.config, values.out !== undefined ? join(values.out, 'report.json') : undefined];
    const { paths, found, naming, warnings } = readCorpusInput(positionals, values, io.cwd, 'report', ownFiles);
    const folders = referenceFolderArgs(values.references, values.bundled, io.cwd);
    const external = folders.length
      ? await externalReferences(
          folders,
          found.trajectories.flatMap((t) => (t.task === null ? [] : [t.task])),
        )
      : undefined;
    const forecastFile = values.forecast !== undefined ? resolve(io.cwd, forecastFileArg(values.forecast)) : undefined;
    const forecast = forecastFile !== undefined ? await readForecastFile(forecastFile) : undefined;
    const rankModel = rankModelOption(values['rank-model'], values.forecast, forecast);
    const configFile = values.config !== undefined ? resolve(io.cwd, values.config) : undefined;
    const config = configFile !== undefined ? { file: values.config!, config: await readConfigFile(configFile) } : undefined;
    const prior = await chooseReference(undefined);
    const exit = reportCorpusInput(found, values.lenient, io.stderr, warnings);
    const bar = progress(io);
    const report = buildReport(found, {
      fs: nodeReportFs,
      analyzers: defaultAnalyzers(),
      paths,
      onProgress: bar.tick,
      naming,
      seed,
      minRuns,
      byReference: values['by-reference'],
      inputWarnings: warnings,
      failingReference,
      ...(prior.kind === 'prior' ? { prior: prior.prior } : {}),
      ...(forecast ? { forecast } : {}),
      ...(rankModel === 'end' ? { endModel: true } : {}),
      ...(external ? { external, referenceFolders: folders } : {}),
      ...(config ? { config } : {}),
    });
    bar.end();
    // Each warning once on the terminal: the input ones were printed before scoring (reportCorpusInput), the summary's
    // `warning:` lines are on stdout (none with --json); stderr gets the rest. report.json keeps them all.
    const summary = values.json ? '' : terminalSummary(report);
    const shown = new Set([...warnings, ...summary.split('\n')].filter((l) => l.startsWith('warning: ')).map((l) => l.slice('warning: '.length)));
    for (const w of report.warnings) if (!shown.has(w)) io.stderr(`warning: ${w}\n`);
    const written = values.out !== undefined ? writeOutputs(resolve(io.cwd, values.out), report) : [];
    if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    else {
      io.stdout(summary);
      if (written.length) io.stdout(`wrote ${written.length} files to ${values.out}: ${written.join(', ')}\n`);
    }
    return exit;
  },
};

export default command;
