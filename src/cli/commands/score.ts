/** `steplens score FILE [--pta PTA.json] [--passed|--failed]`: score one trajectory. */
import { parseArgs } from 'node:util';
import { createScorer } from '../../core/scorer.js';
import type { TrajectoryReport } from '../../core/scorer-api.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { exitCodeFor, formatOption, LENIENT_OPTION, readTrajectory, reportDiagnostics } from '../input.js';
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

function humanReport(report: TrajectoryReport, task: string | undefined): string {
  const s = report.score;
  const ref = report.reference.kind === 'pta' ? `PTA v${report.reference.version} (${report.reference.paths} paths)` : 'prior (no PTA: struct and cov left out)';
  const out = [
    `${task ?? 'trajectory'}: ${report.steps} steps, reference ${ref}`,
    `score ${formatNumber(s.total)}  tier ${report.tier}${report.lucky ? ` (${report.lucky})` : ''}`,
    `  struct ${show(s.struct)}  cov ${show(s.cov)}  coh ${show(s.coh)}  temp ${show(s.temp)}`,
    `stages ${report.stages}`,
    ...(report.pPass !== undefined ? [`forecast P(pass) ${report.pPass.toFixed(3)}`] : []),
  ];
  if (report.signals.length) {
    out.push('', 'signals:', renderTable(['t', 'kind', 'severity', 'steps'], report.signals.map((x) => [x.t, x.kind, x.severity, x.steps.join(',')])).trimEnd());
  }
  if (report.waste.length) {
    const rows = report.waste.map((w) => [w.category, w.tool, w.wastedSteps, w.wastedTokens, w.steps.join(',')]);
    out.push('', 'waste:', renderTable(['category', 'tool', 'steps', 'tokens', 'at'], rows).trimEnd());
  }
  return out.join('\n') + '\n';
}

const command: Command = {
  name: 'score',
  summary: 'score one trajectory against a PTA (or reference-free)',
  usage:
    'usage: steplens score FILE [--pta PTA.json] [--passed | --failed] [--format F] [--prior-dir DIR]\n' +
    '                      [--policy POLICY.json] [--config CONFIG.json] [--forecast FORECAST.json] [--json] [--lenient]\n' +
    '  without --pta the trajectory is scored reference-free against the prior pooled from the bundled references\n' +
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
        json: { type: 'boolean', default: false },
        ...LENIENT_OPTION,
      },
    });
    if (positionals.length !== 1) throw new SteplensError('usage', 'expected exactly one FILE');
    if (values.passed && values.failed) throw new SteplensError('usage', '--passed and --failed are exclusive');
    const file = positionals[0]!;
    const reference = await chooseReference(values.pta, values['prior-dir']);
    const parsed = await readTrajectory(file, formatOption(values.format));
    reportDiagnostics(file, parsed, io.stderr);
    const passed = values.passed ? true : values.failed ? false : undefined;
    const forecast = values.forecast !== undefined ? selectModel(await readForecastFile(values.forecast), parsed.meta.agent, parsed.meta.model) : undefined;
    const scorer = createScorer({
      reference,
      analyzers: defaultAnalyzers(),
      ...(forecast !== undefined ? { forecast } : {}),
      ...(values.policy !== undefined ? { policy: await readPolicyFile(values.policy) } : {}),
      ...(values.config !== undefined ? { config: await readConfigFile(values.config) } : {}),
    });
    for (const step of parsed.steps) scorer.push(step);
    const report = scorer.report(passed);
    const task = parsed.meta.task ?? (reference.kind === 'pta' ? reference.pta.task : undefined);
    io.stdout(values.json ? `${JSON.stringify(scoreDocument(report, task))}\n` : humanReport(report, task));
    return exitCodeFor([parsed], values.lenient);
  },
};

export default command;
