/** `steplens score FILE [--pta PTA.json] [--passed|--failed]`: score one trajectory. */
import { parseArgs } from 'node:util';
import { createScorer } from '../../core/scorer.js';
import type { Reference, TrajectoryReport } from '../../core/scorer-api.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { formatOption, LENIENT_OPTION } from '../input.js';
import { INSTANCE_OPTION, logExitCode, readLogFile, reportLogDiagnostics, selectInstances, type Instance } from '../instances.js';
import { chooseReference } from '../references.js';
import { readConfigFile, readForecastFile, readPolicyFile } from '../../settings-files.js';
import { selectModel } from '../../core/forecast/model.js';
import { formatNumber, renderTable } from '../table.js';

/** The `score --json` document (cli.md). */
export function scoreDocument(report: TrajectoryReport, task: string | undefined) {
  return {
    ...(task ? { task } : {}),
    score: report.score,
    tier: report.tier,
    ...(report.lucky ? { lucky: report.lucky } : {}),
    waste: report.waste,
    signals: report.signals.map((s) => ({ kind: s.kind, severity: s.severity, t: s.t, steps: s.steps, message: s.message })),
    steps: report.steps,
    stages: report.stages,
    reference: report.reference,
    unknown: report.unknown,
    ...(report.pPass !== undefined ? { pPass: report.pPass } : {}),
  };
}

const show = (v: number | null) => (v === null ? '-' : formatNumber(v));

function humanReport(report: TrajectoryReport, task: string | undefined, passed: boolean | undefined): string {
  const s = report.score;
  const ref = report.reference.kind === 'pta' ? `PTA v${report.reference.version} (${report.reference.paths} paths)` : 'prior (no PTA: struct and cov left out)';
  const out = [
    `${task ?? 'trajectory'}: ${report.steps} steps, reference ${ref}`,
    `score ${formatNumber(s.total)}  tier ${report.tier}${report.lucky ? ` (${report.lucky})` : ''}${passed === undefined ? ' (projected: outcome unknown; --passed / --failed give the real tier)' : ''}`,
    `  struct ${show(s.struct)}  cov ${show(s.cov)}  coh ${show(s.coh)}  temp ${show(s.temp)}`,
    `stages ${report.stages}`,
    ...(report.pPass !== undefined ? [`forecast P(pass) ${report.pPass.toFixed(3)}`] : []),
  ];
  if (report.signals.length) {
    out.push(
      '',
      'signals:',
      renderTable(
        ['t', 'kind', 'severity', 'steps'],
        report.signals.map((x) => [x.t, x.kind, x.severity, x.steps.join(',')]),
      ).trimEnd(),
    );
  }
  if (report.waste.length) {
    const rows = report.waste.map((w) => [w.category, w.tool, w.wastedSteps, w.wastedTokens, w.steps.join(',')]);
    out.push('', 'waste:', renderTable(['category', 'tool', 'steps', 'tokens', 'at'], rows).trimEnd());
  }
  return out.join('\n') + '\n';
}

/** The warning when the run's task is not the PTA's (scoring against another task's reference is allowed, never silent). */
function taskMismatch(file: string, x: Instance, task: string | undefined, forced: boolean, ptaFile: string, reference: Reference): string | undefined {
  if (reference.kind !== 'pta' || task === undefined || task === reference.pta.task) return undefined;
  const whose = forced ? `--task ${task}` : `${file}${x.id !== task ? ` (${x.id})` : ''} is a run of task ${task}`;
  return `warning: ${whose}, but ${ptaFile} is the reference of task ${reference.pta.task}; scored against it anyway` + (forced ? '' : ` (--task ${reference.pta.task} says the run is of that task)`);
}

const command: Command = {
  name: 'score',
  summary: 'score one trajectory against a PTA (or reference-free)',
  usage:
    'usage: steplens score FILE [--pta PTA.json] [--passed | --failed] [--format F] [--prior-dir DIR] [--instance ID] [--task ID]\n' +
    '                      [--policy POLICY.json] [--config CONFIG.json] [--forecast FORECAST.json] [--json] [--lenient]\n' +
    '  without --pta the trajectory is scored reference-free against the prior pooled from the bundled references\n' +
    '  FILE may be gzipped; a file holding several trajectories (OpenHands output.jsonl) gives one report each\n' +
    '  (--json: an array), or only the one --instance ID names\n' +
    "  --task: the run's task when the log names none or names it differently (a PTA of another task is warned about)\n" +
    '  --policy: early-stop thresholds (partial, as in start.policy or written by calibrate --out)\n' +
    '  --config: scoring weights, tier thresholds, tau, ... (partial override of the defaults)\n' +
    '  --forecast: outcome forecast model (steplens train --out): adds the forecast P(pass) of the whole trajectory',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        pta: { type: 'string' },
        passed: { type: 'boolean', default: false },
        failed: { type: 'boolean', default: false },
        format: { type: 'string' },
        'prior-dir': { type: 'string' },
        policy: { type: 'string' },
        config: { type: 'string' },
        forecast: { type: 'string' },
        task: { type: 'string' },
        json: { type: 'boolean', default: false },
        ...INSTANCE_OPTION,
        ...LENIENT_OPTION,
      },
    });
    if (positionals.length !== 1) throw new SteplensError('usage', 'expected exactly one FILE');
    if (values.passed && values.failed) throw new SteplensError('usage', '--passed and --failed are exclusive');
    const file = positionals[0]!;
    const reference = await chooseReference(values.pta, values['prior-dir']);
    const log = await readLogFile(file, formatOption(values.format));
    const chosen = selectInstances(log, values.instance, false);
    reportLogDiagnostics(log, chosen, io.stderr);
    const passed = values.passed ? true : values.failed ? false : undefined;
    const policy = values.policy !== undefined ? await readPolicyFile(values.policy) : undefined;
    const config = values.config !== undefined ? await readConfigFile(values.config) : undefined;
    const forecasts = values.forecast !== undefined ? await readForecastFile(values.forecast) : undefined;
    const analyzers = defaultAnalyzers();
    const results = chosen.map((x) => {
      const runTask = values.task ?? x.parsed.meta.task;
      const warning = taskMismatch(file, x, runTask, values.task !== undefined, values.pta ?? '', reference);
      if (warning) io.stderr(`${warning}\n`);
      const forecast = forecasts !== undefined ? selectModel(forecasts, x.parsed.meta.agent, x.parsed.meta.model) : undefined;
      const scorer = createScorer({ reference, analyzers, ...(forecast ? { forecast } : {}), ...(policy ? { policy } : {}), ...(config ? { config } : {}) });
      for (const step of x.parsed.steps) scorer.push(step);
      return { report: scorer.report(passed), task: runTask ?? (reference.kind === 'pta' ? reference.pta.task : undefined) };
    });
    if (values.json) {
      const docs = results.map((r) => scoreDocument(r.report, r.task));
      io.stdout(`${JSON.stringify(docs.length === 1 ? docs[0] : docs)}\n`);
    } else {
      io.stdout(results.map((r) => humanReport(r.report, r.task, passed)).join('\n'));
    }
    return logExitCode(log, chosen, values.lenient);
  },
};

export default command;
