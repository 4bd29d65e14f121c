/**
 * `score`'s waste table: its counts are the wasted steps and tokens, and `at` the steps of the span. The columns were
 * `steps` and `tokens`: a regression loop over steps 5,6,8,9 read "steps 2" beside "at 5,6,8,9" (2 of the 4 wasted).
 */
import { describe, expect, it } from 'vitest';
import { cli, CORPUS } from './run-cli.js';

const BOKEH = `${CORPUS}christsakm__Trajectories/GOOD_EXAMPLES/bokeh__bokeh-13370/trace_01_gpt-5-2025-08-07/bokeh__bokeh-13370.traj`;

describe('score: the waste table', () => {
  it('heads its counts wasted steps and wasted tokens, beside the steps of the span', async () => {
    const run = await cli('score', BOKEH);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    const head = lines[lines.indexOf('waste:') + 1]!;
    expect(head.split(/ {2,}/)).toEqual(['category', 'tool', 'wasted steps', 'wasted tokens', 'at']);
    const loop = lines.find((l) => l.startsWith('regression_loop'))!.split(/ {2,}/);
    expect(loop).toEqual(['regression_loop', 'str_replace_editor', '2', '1063', '5,6,8,9']);
  });
});
