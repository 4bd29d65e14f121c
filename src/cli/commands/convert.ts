/** `steplens convert FILE [--format F] [--instance ID]`: print the trajectory as `steplens` JSON Lines. */
import { parseArgs } from 'node:util';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { formatOption, LENIENT_OPTION } from '../input.js';
import { INSTANCE_OPTION, logExitCode, readLogFile, reportLogDiagnostics, selectInstances } from '../instances.js';

const command: Command = {
  name: 'convert',
  usage:
    'usage: steplens convert FILE [--format auto|steplens|openhands|swe-agent|mini-swe-agent|atif] [--instance ID] [--lenient]\n' +
    '  FILE may be gzipped; a file holding several trajectories (OpenHands output.jsonl) needs --instance ID',
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { format: { type: 'string' }, ...INSTANCE_OPTION, ...LENIENT_OPTION } });
    if (positionals.length !== 1) throw new SteplensError('usage', 'expected exactly one FILE');
    const log = await readLogFile(positionals[0]!, formatOption(values.format));
    const chosen = selectInstances(log, values.instance, true);
    reportLogDiagnostics(log, chosen, io.stderr);
    const steps = chosen[0]!.parsed.steps;
    io.stdout(steps.map((s) => JSON.stringify(s)).join('\n') + (steps.length ? '\n' : ''));
    return logExitCode(log, chosen, values.lenient);
  },
};

export default command;
