/** `steplens show-pta PTA.json [--json]`: the readable summary of a stored PTA. */
import { parseArgs } from 'node:util';
import { formatPtaSummary, summarisePta } from '../../core/pta/index.js';
import { SteplensError } from '../../errors.js';
import type { Command } from '../command.js';
import { readPta } from '../input.js';

const command: Command = {
  name: 'show-pta',
  usage: 'usage: steplens show-pta PTA.json [--json]\n  --json prints the summary as one JSON document (counts, paths, nodes)',
  async run(args, io) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { json: { type: 'boolean', default: false } } });
    if (positionals.length !== 1) throw new SteplensError('usage', 'expected exactly one PTA.json');
    const summary = summarisePta(await readPta(positionals[0]!));
    io.stdout(values.json ? `${JSON.stringify(summary)}\n` : formatPtaSummary(summary));
    return 0;
  },
};

export default command;
