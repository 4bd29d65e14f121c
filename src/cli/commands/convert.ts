/** `steplens convert FILE [--format F]`: print the trajectory as `steplens` JSON Lines. */
import { parseArgs } from 'node:util';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { exitCodeFor, formatOption, LENIENT_OPTION, readTrajectory, reportDiagnostics } from '../input.js';

const command: Command = {
  name: 'convert',
  summary: 'print a trajectory as steplens JSON Lines (one normalised step a line)',
  usage: 'usage: steplens convert FILE [--format auto|steplens|openhands|swe-agent|mini-swe-agent|atif] [--lenient]',
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { format: { type: 'string' }, ...LENIENT_OPTION } });
    if (positionals.length !== 1) throw new SteplensError('usage', 'expected exactly one FILE');
    const file = positionals[0]!;
    const parsed = await readTrajectory(file, formatOption(values.format));
    reportDiagnostics(file, parsed, io.stderr);
    io.stdout(parsed.steps.map((s) => JSON.stringify(s)).join('\n') + (parsed.steps.length ? '\n' : ''));
    return exitCodeFor([parsed], values.lenient);
  },
};

export default command;
