import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { CORPUS } from './run-cli.js';

const bin = join(packageRoot(), 'dist', 'src', 'cli', 'main.js');

/** The installed bin (`npx steplens`), built by `npm test` / `npm ci` before the tests run. */
describe.skipIf(!existsSync(bin))('the steplens binary', () => {
  it('says in one line that a command is missing, and where the usage is, exit 1', () => {
    const r = spawnSync(process.execPath, [bin], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('no command given');
    expect(r.stderr).toContain("'steplens --help' prints the usage");
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('usage: steplens');
  });

  it('bad input: one line naming the file, exit 1, no stack trace', () => {
    const r = spawnSync(process.execPath, [bin, 'score', '/nonexistent/run.traj'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('/nonexistent/run.traj');
    expect(r.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('--json prints exactly one JSON document on stdout', () => {
    const file = join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1866/pylint-dev__astroid-1866.traj.json');
    const out = execFileSync(process.execPath, [bin, 'score', file, '--json'], { encoding: 'utf8' });
    const doc = JSON.parse(out) as { steps: number };
    expect(doc.steps).toBeGreaterThan(0);
  });

  it('a reader that stops early (| head) ends the command quietly, exit 0', async () => {
    // The reader is gone before the first write, so every write fails with EPIPE.
    const file = join(CORPUS, 'christsakm__Trajectories/GOOD_EXAMPLES/bokeh__bokeh-13370/trace_04_claude-sonnet-4-20250514/bokeh__bokeh-13370.traj');
    const child = spawn(process.execPath, [bin, 'convert', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
