/** `steplens label FILE [--format F] [--json]`: parse one trajectory and label its steps. */
import { parseArgs } from 'node:util';
import { labelSteps } from '../../core/state-builder.js';
import type { Label, Step } from '../../core/types.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { formatOption, LENIENT_OPTION } from '../input.js';
import { INSTANCE_OPTION, logExitCode, readLogFile, reportLogDiagnostics, selectInstances, type Instance } from '../instances.js';
import { renderTable } from '../table.js';

/** One labelled step as `label --json` prints it (cli.md). */
export interface LabelledStep {
  t: number;
  stage: Label['stage'];
  tool: string;
  kind: Label['kind'];
  file?: string;
  range?: [number, number];
  command?: string;
  rule: number;
  unknown: boolean;
}

/** The display form of a step's action: its command, code, or path. */
export function actionText(step: Step): string | undefined {
  const a = step.action;
  if (a.kind === 'shell') return a.command;
  if (a.kind === 'code') return a.code;
  return undefined;
}

function toLabelled(step: Step, label: Label): LabelledStep {
  const out: LabelledStep = { t: step.t, stage: label.stage, tool: step.tool, kind: label.kind, rule: label.rule, unknown: label.unknown };
  if (label.file !== undefined) out.file = label.file;
  if (label.range !== undefined) out.range = label.range;
  const command = actionText(step);
  if (command !== undefined) out.command = command;
  return out;
}

const oneLine = (s: string, max: number) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** The `label --json` document of one trajectory. */
function labelDocument(x: Instance, labelled: LabelledStep[]) {
  const p = x.parsed;
  return { format: p.format, ...(p.meta.task ? { task: p.meta.task } : {}), steps: labelled, diagnostics: p.diagnostics };
}

function labelText(x: Instance, labelled: LabelledStep[]): string {
  const rows = labelled.map((s) => [s.t, s.stage + (s.unknown ? '?' : ''), s.kind, s.tool, oneLine(s.command ?? s.file ?? '', 70)]);
  const stages = labelled.map((s) => s.stage).join('');
  const unknown = labelled.filter((s) => s.unknown).length;
  const p = x.parsed;
  return (
    renderTable(['t', 'stage', 'kind', 'tool', 'target'], rows) +
    `\n${p.format}${p.meta.task ? ` ${p.meta.task}` : ''}: ${labelled.length} steps  ${stages}\n` +
    (unknown > 0 ? `${unknown} step(s) matched no rule (marked ?; labelled by the fallback)\n` : '')
  );
}

const command: Command = {
  name: 'label',
  usage:
    'usage: steplens label FILE [--format auto|steplens|openhands|swe-agent|mini-swe-agent|atif] [--instance ID] [--json] [--lenient]\n' +
    '  FILE may be gzipped; a file holding several trajectories (OpenHands output.jsonl) gives one result each\n' +
    '  (--json: an array), or only the one --instance ID names\n' +
    '  bad lines or events are reported on stderr and skipped; exit 1 unless --lenient',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { format: { type: 'string' }, json: { type: 'boolean', default: false }, ...INSTANCE_OPTION, ...LENIENT_OPTION },
    });
    if (positionals.length !== 1) throw new SteplensError('usage', 'expected exactly one FILE');
    const log = await readLogFile(positionals[0]!, formatOption(values.format));
    const chosen = selectInstances(log, values.instance, false);
    reportLogDiagnostics(log, chosen, io.stderr);
    const analyzers = defaultAnalyzers();
    const results = chosen.map((x) => ({ x, labelled: labelSteps(x.parsed.steps, analyzers).map(({ label }, i) => toLabelled(x.parsed.steps[i]!, label)) }));
    if (values.json) {
      const docs = results.map((r) => labelDocument(r.x, r.labelled));
      io.stdout(`${JSON.stringify(docs.length === 1 ? docs[0] : docs)}\n`);
    } else {
      io.stdout(results.map((r) => labelText(r.x, r.labelled)).join('\n'));
    }
    return logExitCode(log, chosen, values.lenient);
  },
};

export default command;
