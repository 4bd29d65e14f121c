/** `steplens label FILE [--format F] [--json]`: parse one trajectory and label its steps. */
import { parseArgs } from 'node:util';
import { labelSteps } from '../../core/state-builder.js';
import type { Label, Step } from '../../core/types.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { exitCodeFor, formatOption, LENIENT_OPTION, readTrajectory, reportDiagnostics } from '../input.js';
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

const command: Command = {
  name: 'label',
  summary: 'parse one trajectory and label its steps (E/I/V/O)',
  usage: 'usage: steplens label FILE [--format auto|steplens|openhands|swe-agent|mini-swe-agent|atif] [--json] [--lenient]\n' +
    '  bad lines or events are reported on stderr and skipped; exit 1 unless --lenient',
  async run(args, io) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { format: { type: 'string' }, json: { type: 'boolean', default: false }, ...LENIENT_OPTION },
    });
    if (positionals.length !== 1) throw new SteplensError('usage', 'expected exactly one FILE');
    const file = positionals[0]!;
    const parsed = await readTrajectory(file, formatOption(values.format));
    reportDiagnostics(file, parsed, io.stderr);
    const labelled = labelSteps(parsed.steps, defaultAnalyzers()).map(({ label }, i) => toLabelled(parsed.steps[i]!, label));
    if (values.json) {
      const doc = { format: parsed.format, ...(parsed.meta.task ? { task: parsed.meta.task } : {}), steps: labelled, diagnostics: parsed.diagnostics };
      io.stdout(`${JSON.stringify(doc)}\n`);
      return exitCodeFor([parsed], values.lenient);
    }
    const rows = labelled.map((s) => [s.t, s.stage + (s.unknown ? '?' : ''), s.kind, s.tool, oneLine(s.command ?? s.file ?? '', 70)]);
    io.stdout(renderTable(['t', 'stage', 'kind', 'tool', 'target'], rows));
    const stages = labelled.map((s) => s.stage).join('');
    const unknown = labelled.filter((s) => s.unknown).length;
    io.stdout(`\n${parsed.format}${parsed.meta.task ? ` ${parsed.meta.task}` : ''}: ${labelled.length} steps  ${stages}\n`);
    if (unknown > 0) io.stdout(`${unknown} step(s) matched no rule (marked ?; labelled by the fallback)\n`);
    return exitCodeFor([parsed], values.lenient);
  },
};

export default command;
