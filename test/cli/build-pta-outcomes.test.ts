/**
 * audit26 (round 5 left it): `build-pta` built a PTA from a failing run without a word. It cannot know an outcome from
 * a log, but an evaluation can say it: `--outcomes` / `--manifest` rows, or the SWE-bench `report.json` beside the log
 * (as `report` reads it). A run they call failed is now refused with one line naming it and what said so; the usage
 * says the rest is taken on the user's word. Real runs: examples/runs (its outcomes.csv).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const TASK = 'pylint-dev__astroid-1196';
const RUNS = 'examples/runs/mini-swe-agent';
const PASS = [`${RUNS}/deepseek_chat_dev/${TASK}.traj.json`, `${RUNS}/deepseek_chat_dev_rerun/${TASK}.traj.json`];
const FAIL = `${RUNS}/deepseek_lite_dev_noparallel/${TASK}.traj.json`;

describe('build-pta refuses a run an evaluation calls failed', () => {
  it('--outcomes saying fail: refused, the run and the table named; passing runs alone still build', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'a26-pta-')), 'p.json');
    const bad = await cli('build-pta', '--task', TASK, '--out', out, PASS[0]!, FAIL, '--outcomes', 'examples/runs/outcomes.csv');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain(`${FAIL} is a failing run (--outcomes says so)`);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const good = await cli('build-pta', '--task', TASK, '--out', out, ...PASS, '--outcomes', 'examples/runs/outcomes.csv', '--json');
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ task: TASK, references: 2 });
  });

  it('a SWE-bench report.json beside the log saying unresolved: refused, the file named', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'a26-pta-')), 'lite');
    mkdirSync(dir);
    copyFileSync(FAIL, join(dir, `${TASK}.traj.json`));
    writeFileSync(join(dir, 'report.json'), JSON.stringify({ [TASK]: { resolved: false } }));
    const r = await cli('build-pta', '--task', TASK, '--out', join(dir, '..', 'p.json'), PASS[0]!, join(dir, `${TASK}.traj.json`));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/is a failing run \(.*report\.json says so\)/);
  });

  it('the usage says what a reference must be and what is checked', async () => {
    const r = await cli('build-pta', '--help');
    const text = r.stdout + r.stderr;
    expect(text).toContain('[--outcomes FILE] [--manifest FILE]');
    expect(text).toContain('give passing runs only');
  });
});
