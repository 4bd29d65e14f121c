/** `steplens build-pta --task ID --out PTA.json FILE...`: build a task's PTA from passing trajectories. */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { buildPta, formatPtaSummary, ptaToJson, summarisePta } from '../../core/pta/index.js';
import { labelSteps } from '../../core/state-builder.js';
import { defaultAnalyzers } from '../../syntax/index.js';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { exitCodeFor, formatOption, LENIENT_OPTION, readTrajectory, reportDiagnostics } from '../input.js';

const command: Command = {
  name: 'build-pta',
  summary: "build a task's reference PTA from passing trajectories",
  usage:
    'usage: steplens build-pta --task ID --out PTA.json FILE... [--format F] [--min-refs N] [--json] [--lenient]\n' +
    '  FILE...      passing trajectories of the task (at least --min-refs, default 2)',
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
        ...LENIENT_OPTION,
      },
    });
    if (!values.task) throw new SteplensError('usage', '--task ID is required');
    if (!values.out) throw new SteplensError('usage', '--out PTA.json is required');
    const minRefs = Number(values['min-refs']);
    if (!Number.isInteger(minRefs) || minRefs < 1) throw new SteplensError('usage', `--min-refs must be a positive integer (got '${values['min-refs']}')`);
    if (positionals.length < minRefs) {
      throw new SteplensError('usage', `a PTA needs at least ${minRefs} passing trajectories (got ${positionals.length})`);
    }
    const format = formatOption(values.format);
    const analyzers = defaultAnalyzers();
    const references = [];
    const parsedAll = [];
    for (const file of positionals) {
      const parsed = await readTrajectory(file, format);
      reportDiagnostics(file, parsed, io.stderr);
      parsedAll.push(parsed);
      if (parsed.steps.length === 0) throw new SteplensError('bad_input', `${file}: no steps to build a reference from`);
      references.push(labelSteps(parsed.steps, analyzers).map((x) => x.state));
    }
    const pta = buildPta(values.task, references);
    await mkdir(dirname(values.out), { recursive: true });
    const tmp = `${values.out}.${process.pid}.tmp`;
    await writeFile(tmp, ptaToJson(pta));
    await rename(tmp, values.out);
    const summary = summarisePta(pta);
    if (values.json) {
      io.stdout(`${JSON.stringify({ task: pta.task, references: summary.references, nodes: summary.nodes, paths: summary.paths, version: pta.version })}\n`);
    } else {
      io.stdout(formatPtaSummary(summary));
      io.stdout(`wrote ${values.out}\n`);
    }
    return exitCodeFor(parsedAll, values.lenient);
  },
};

export default command;
