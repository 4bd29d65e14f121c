/**
 * `steplens rank` (dist/bin/steplens.js) on real corpus runs: --task names the task of logs that name none and never
 * renames a log's own (runs of two tasks were ranked as one under --task), and a file given twice is refused (it was
 * ranked against itself, 1= beside 1=). Each refusal: one line on stderr, exit 1, nothing on stdout.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { CORPUS } from './run-cli.js';

const bin = path.join(packageRoot(), 'dist', 'bin', 'steplens.js');
const M = path.join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev');
const A1196 = path.join(M, 'pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
const A1866 = path.join(M, 'pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json');
const steplens = (...args: string[]) => spawnSync(process.execPath, [bin, 'rank', ...args], { encoding: 'utf8', timeout: 120_000 });

describe.skipIf(!existsSync(bin))('steplens rank: --task and duplicate files (dist)', () => {
  it("refuses --task beside logs of other tasks, naming each (as POST /v1/rank's body.task)", () => {
    const r = steplens('--task', 'foo', A1196, A1866);
    expect(r.stdout).toBe('');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(
      /^steplens rank: the runs are of 3 tasks: foo \(--task\); pylint-dev__astroid-1196 \(.*1196\.traj\.json\); pylint-dev__astroid-1866 \(.*1866\.traj\.json\); rank compares/,
    );
    const same = steplens('--json', '--task', 'pylint-dev__astroid-1196', A1196);
    expect(same.status).toBe(0);
    expect((JSON.parse(same.stdout) as { task: string }).task).toBe('pylint-dev__astroid-1196');
  });

  it('refuses a file given twice, also under another spelling of its path', () => {
    const again = `${M}/./pylint-dev__astroid-1196/../pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json`;
    for (const second of [A1196, again]) {
      const r = steplens(A1196, second);
      expect(r.stdout).toBe('');
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(`steplens rank: ${second} is given twice: each run is ranked once`);
    }
  });
});
