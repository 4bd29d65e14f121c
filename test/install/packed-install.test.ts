/**
 * steplens as npm users get it: `npm pack` of this checkout, installed into an empty project, run through
 * the installed bin (node_modules/.bin/steplens, a symlink). It must print usage and its version, score a
 * sample run exactly as the checkout does (same bundled prior and bundled forecaster), and serve the bundled references.
 * One install serves every check. It runs with --ignore-scripts: the one install script that does work here,
 * tree-sitter's native build (no prebuild for linux-x64), cost ~40 s of CPU, and the checkout's `npm ci` ran
 * it for the same pinned version, so its binary is copied in instead (the grammars load their prebuilds).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot, packageVersion } from '../../src/package-files.js';

const ROOT = packageRoot();
const SAMPLE = path.join(ROOT, 'examples/runs/mini-swe-agent/deepseek_lite_dev_noparallel/pylint-dev__astroid-1196.traj.json');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work: string;
let project: string;
let bin: string;

function run(cmd: string, args: string[], cwd: string, timeout = 120_000): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' } });
  return { status: r.status, stdout: r.stdout, stderr: `${r.stderr}${r.error ? `\n${r.error.message}` : ''}` };
}

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'steplens-pack-'));
  // dist/ is built by `npm test` before the tests run; --ignore-scripts packs it as is.
  const packed = run(NPM, ['pack', '--ignore-scripts', '--pack-destination', work], ROOT);
  expect(packed.status, packed.stderr).toBe(0);
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (tarball === undefined) throw new Error(`npm pack wrote no tarball: ${packed.stderr}`);
  project = path.join(work, 'project');
  mkdirSync(project);
  expect(run(NPM, ['init', '-y'], project).status).toBe(0);
  const installed = run(NPM, ['install', '--prefer-offline', '--ignore-scripts', path.join(work, tarball)], project, 280_000);
  expect(installed.status, installed.stderr).toBe(0);
  useCheckoutTreeSitter(project);
  bin = path.join(project, 'node_modules', '.bin', 'steplens');
}, 300_000);

/** The checkout's tree-sitter binary in the installed copy of the same version, or tree-sitter's own build where the checkout has none. */
function useCheckoutTreeSitter(dir: string): void {
  const version = (root: string) => (JSON.parse(readFileSync(path.join(root, 'node_modules/tree-sitter/package.json'), 'utf8')) as { version: string }).version;
  expect(version(dir)).toBe(version(ROOT));
  const built = path.join(ROOT, 'node_modules/tree-sitter/build/Release');
  const natives = existsSync(built) ? readdirSync(built).filter((f) => f.endsWith('.node')) : [];
  if (natives.length === 0) {
    const rebuilt = run(NPM, ['rebuild', 'tree-sitter'], dir, 280_000);
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    return;
  }
  const target = path.join(dir, 'node_modules/tree-sitter/build/Release');
  mkdirSync(target, { recursive: true });
  for (const file of natives) copyFileSync(path.join(built, file), path.join(target, file));
}

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the packed package, installed into an empty project', () => {
  it('prints usage and its version through the installed bin (a symlink)', () => {
    const help = run(bin, ['--help'], project);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^usage: steplens <command>/);
    const version = run(bin, ['--version'], project);
    expect(version.stdout.trim()).toBe(`steplens ${packageVersion()}`);
    const viaNpx = run('npx', ['--no-install', 'steplens', '--help'], project);
    expect(viaNpx.stdout).toMatch(/^usage: steplens/);
  });

  it('scores a real run exactly as the checkout does (the same bundled prior)', () => {
    const installed = run(bin, ['score', SAMPLE, '--json'], project);
    expect(installed.status, installed.stderr).toBe(0);
    const checkout = run(process.execPath, [path.join(ROOT, 'dist/src/cli/main.js'), 'score', SAMPLE, '--json'], ROOT);
    expect(checkout.status, checkout.stderr).toBe(0);
    expect(installed.stdout).toBe(checkout.stdout);
    expect((JSON.parse(installed.stdout) as { reference: { kind: string } }).reference.kind).toBe('prior');
  });

  it('ships the bundled forecaster: `--forecast bundled` gives the pPass the checkout gives', () => {
    const installed = run(bin, ['score', SAMPLE, '--json', '--forecast', 'bundled'], project);
    expect(installed.status, installed.stderr).toBe(0);
    const checkout = run(process.execPath, [path.join(ROOT, 'dist/src/cli/main.js'), 'score', SAMPLE, '--json', '--forecast', 'bundled'], ROOT);
    expect(installed.stdout).toBe(checkout.stdout);
    expect((JSON.parse(installed.stdout) as { pPass?: number }).pPass).toBeGreaterThan(0);
  });

  it('serves /healthz and lists the bundled tasks', async () => {
    const data = path.join(work, 'data');
    const child: ChildProcess = spawn(bin, ['serve', '--port', '0', '--data', data, '--log-level', 'info'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const address = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
        child.stdout?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /"address":"(http:\/\/[^"]+)"/.exec(out);
          if (m?.[1]) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
      });
      expect((await fetch(`${address}/healthz`)).status).toBe(200);
      const tasks = (await (await fetch(`${address}/v1/tasks`)).json()) as { tasks: Array<{ task: string }> };
      const bundled = readdirSync(path.join(ROOT, 'data', 'example'))
        .map((f) => f.replace(/\.json$/, ''))
        .sort();
      expect(tasks.tasks.map((t) => t.task).sort()).toEqual(bundled);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
