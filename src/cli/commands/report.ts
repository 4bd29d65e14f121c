/** `steplens report [--outcomes FILE] [--out DIR] [--json] PATH...`: the corpus report. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SteplensError } from '../../errors.js';
import { buildReport } from '../../report/build-report.js';
import { nodeReportFs } from '../../report/node-fs.js';
import { reportCharts } from '../../report/render/charts.js';
import { csvTable } from '../../report/render/format-table.js';
import { htmlReport } from '../../report/render/html.js';
import { markdownReport, terminalSummary } from '../../report/render/summary.js';
import { allTables } from '../../report/render/tables.js';
import type { CorpusReport } from '../../report/types.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import type { CliIO, Command } from '../command.js';
import { CORPUS_OPTIONS, readCorpusInput, reportCorpusInput } from '../corpus-input.js';
import { externalReferences, referenceFolderArgs } from '../references.js';

/** A stderr progress bar that shows only on a TTY and only once the work has taken over a second. */
function progress(io: CliIO): { tick: (done: number, total: number) => void; end: () => void } {
  const start = Date.now();
  let shown = false;
  return {
    tick(done, total) {
      if (!io.stderrIsTTY || Date.now() - start < 1000) return;
      shown = true;
      const width = 30;
      const filled = Math.round((width * done) / Math.max(1, total));
      io.stderr(`\rscoring [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
    },
    end() {
      if (shown) io.stderr('\r\x1b[K');
    },
  };
}

function writeOutputs(dir: string, report: CorpusReport): string[] {
  try {
    mkdirSync(dir, { recursive: true });
    const charts = reportCharts(report);
    for (const c of charts) writeFileSync(join(dir, c.file), c.svg);
    writeFileSync(
      join(dir, 'report.md'),
      markdownReport(
        report,
        charts.map((c) => c.file),
      ),
    );
    writeFileSync(join(dir, 'report.html'), htmlReport(report, charts));
    writeFileSync(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
    const tables = allTables(report);
    for (const t of tables) writeFileSync(join(dir, `${t.name}.csv`), csvTable(t));
    return ['report.md', 'report.html', 'report.json', ...tables.map((t) => `${t.name}.csv`), ...charts.map((c) => c.file)];
  } catch (e) {
    throw new SteplensError('bad_input', `cannot write to --out ${dir}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

const command: Command = {
  name: 'report',
  usage:
    'usage: steplens report [--outcomes FILE] [--out DIR] [--json] [--references DIR]... [--bundled] [--model NAME] [--run NAME] [--lenient] PATH...\n' +
    '  PATH: trajectory files or folders (walked recursively, .json/.jsonl/.traj, gzipped or not; evaluation JSON\n' +
    '        is recognised and skipped); every other skipped file is named on stderr with its reason, and an\n' +
    '        unreadable file or a skipped line or event makes the exit code 1 unless --lenient\n' +
    '  outcomes: SWE-bench report.json / results.json / <model>.<run>.json found near the trajectories,\n' +
    '            or --outcomes FILE (CSV with task,outcome[,run,model] or JSON Lines with the same keys)\n' +
    '  --out DIR writes report.md, report.html (self-contained: tables and charts inline), report.json, one CSV per table\n' +
    '            and SVG charts; --json prints the JSON only\n' +
    '  scoring: a passing trajectory against a PTA of the OTHER passing trajectories of its task in PATH, any other\n' +
    '           against a PTA of all of them; a PTA needs 2 references, so a task with fewer is left unscored unless:\n' +
    "  --references DIR  a folder of stored PTAs (<task>.json, e.g. a server's --data folder): such a trajectory is\n" +
    "           scored against its task's PTA there (repeatable: the first folder holding the task wins)\n" +
    '  --bundled  the same with the PTAs bundled with steplens (data/example/, the references `serve` starts with)\n' +
    "           Tables and JSON name each run's reference (in-folder, or the external PTA and its version); a run\n" +
    '           that helped build an external PTA scores optimistically against it (column holds_run, a warning)\n' +
    '  --model / --run override the model and run names read from the logs and folder names\n' +
    '  task and model come from the log (or its evaluation); a log that names neither is listed as such',
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
      },
    });
    const { paths, found, table } = readCorpusInput(positionals, values, io.cwd, 'report');
    const folders = referenceFolderArgs(values.references, values.bundled, io.cwd);
    const external = folders.length
      ? await externalReferences(
          folders,
          found.trajectories.flatMap((t) => (t.task === null ? [] : [t.task])),
        )
      : undefined;
    const exit = reportCorpusInput(found, values.lenient, io.stderr);
    const bar = progress(io);
    const report = buildReport(found, {
      fs: nodeReportFs,
      analyzers: defaultAnalyzers(),
      paths,
      onProgress: bar.tick,
      ...(table ? { table } : {}),
      ...(external ? { external, referenceFolders: folders } : {}),
    });
    bar.end();
    for (const w of report.warnings) io.stderr(`warning: ${w}\n`);
    const written = values.out !== undefined ? writeOutputs(resolve(io.cwd, values.out), report) : [];
    if (values.json) io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    else {
      io.stdout(terminalSummary(report));
      if (written.length) io.stdout(`wrote ${written.length} files to ${values.out}: ${written.join(', ')}\n`);
    }
    return exit;
  },
};

export default command;
