/**
 * audit28 (round 7 left it): `build-pta` refuses a run an evaluation calls failed (audit26), which `cli.md` (the spec's
 * command list) does not do, yet the README's list of where steplens departs from the spec did not name it. The list
 * now does, and what it says is checked against the command: exit 1, one line naming the run and what said so, no PTA.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';

const TASK = 'pylint-dev__astroid-1196';
const RUNS = 'examples/runs/mini-swe-agent';

/** The README's bullets under "Choices the method leaves open" (where it departs from the spec), one string each. */
function deviations(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf('### Choices the method leaves open');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  return section
    .split(/\n- /)
    .slice(1)
    .map((b) => b.replace(/\s*\n\s*/g, ' '));
}

describe("the README's departures from cli.md", () => {
  it('name build-pta refusing a failing run, as the command does it', async () => {
    const bullet = deviations().find((b) => b.startsWith('**`build-pta`'));
    expect(bullet).toBeDefined();
    expect(bullet).toContain('`--outcomes FILE`, `--manifest FILE`, or an evaluation file beside a log');
    expect(bullet).toContain('exits 1 with one line naming the run and what said so (`... is a failing run (--outcomes says so)`) and writes no PTA');
    const out = join(mkdtempSync(join(tmpdir(), 'a28-pta-')), 'p.json');
    const r = await cli(
      'build-pta',
      '--task',
      TASK,
      '--out',
      out,
      `${RUNS}/deepseek_chat_dev/${TASK}.traj.json`,
      `${RUNS}/deepseek_lite_dev_noparallel/${TASK}.traj.json`,
      '--outcomes',
      'examples/runs/outcomes.csv',
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('is a failing run (--outcomes says so)');
    expect(existsSync(out)).toBe(false);
  });
});
