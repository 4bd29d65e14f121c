/**
 * The bin's command files run through its code cache (src/cli/code-cache.ts, scripts/cli-bundle.mjs): a first
 * `score` writes the cache, the next compiles from it, and both print what the sources print, byte for byte, on
 * runs of every format; a temp folder where nothing can be written changes nothing but the time. Each bin process
 * gets a temp folder of its own (`TMPDIR`), so these runs see no other cache.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';
import { CORPUS, cli } from './run-cli.js';

const ROOT = packageRoot();
const BIN = path.join(ROOT, 'dist', 'bin', 'steplens.js');
const work = mkdtempSync(path.join(os.tmpdir(), 'steplens-bin-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One run of each format the corpus has (mini-swe-agent, SWE-agent, OpenHands output.jsonl and events, ATIF). */
const RUNS = [
  'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json',
  'christsakm__Trajectories/TODO/dask__dask-8685/trace_01_gpt-5-2025-08-07/dask__dask-8685.traj',
  'OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl',
  'gsmoon97__swe-agent-eval/evaluation/python/verified/20250329_OpenHands_Claude-3.5-Sonnet(Oct)/trajs/django__django-11099/Claude-3.5-Sonnet(Oct)-1743405661.1259937.json',
  'sachiny0106__Xelron_harbor-copy/tests/golden/terminus_2/hello-world-context-summarization.trajectory.json',
].map((f) => path.join(CORPUS, f));

let n = 0;
/** A temp folder of its own for one bin process. */
function tmp(): string {
  const dir = path.join(work, `t${n++}`);
  return mkdtempSync(`${dir}-`);
}

async function bin(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 26, env: { ...process.env, ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The cache files under a temp folder, with when each was last written. */
function cached(tmpdir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const dir of existsSync(tmpdir) ? readdirSync(tmpdir).filter((d) => d.startsWith('steplens-code-cache')) : [])
    for (const f of readdirSync(path.join(tmpdir, dir))) out.set(`${dir}/${f}`, statSync(path.join(tmpdir, dir, f)).mtimeMs);
  return out;
}

describe('the bin through its code cache', () => {
  it('is CommonJS in strict mode, main, command and worker files', () => {
    const dir = path.join(ROOT, 'dist', 'bin');
    const commands = readdirSync(path.join(dir, 'commands'));
    expect(commands).toContain('score.cjs');
    // Besides them, serve's worker threads: `.js`, the name src/server/worker-entry.ts looks for beside the module.
    expect(commands.filter((f) => !f.endsWith('.cjs')).sort()).toEqual(['retrain-worker.js', 'score-worker.js']);
    // main's name is the package's `bin`: its folder's package.json makes it CommonJS in a package of ES modules.
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    // The sources are ES modules (strict code): each file's first statement says so, before the banner's code.
    const texts = [readFileSync(path.join(dir, 'steplens.js'), 'utf8').replace(/^#!.*\n/, ''), ...commands.map((f) => readFileSync(path.join(dir, 'commands', f), 'utf8'))];
    for (const text of texts) expect(text.startsWith('"use strict";')).toBe(true);
  });

  it('scores each run as the sources do with no cache, writing it, and from it', async () => {
    const tmpdir = tmp();
    for (const run of RUNS) {
      const expected = await cli('score', run, '--json');
      expect(expected.code, expected.stderr).toBe(0);
      const before = cached(tmpdir);
      const cold = await bin({ TMPDIR: tmpdir }, 'score', run, '--json');
      expect(cold).toEqual(expected);
      const written = cached(tmpdir);
      expect(written.size).toBe(1);
      const warm = await bin({ TMPDIR: tmpdir }, 'score', run, '--json');
      expect(warm).toEqual(expected);
      // Compiled from the cache: V8 took it (a refused cache is written again).
      expect(cached(tmpdir)).toEqual(written);
      if (before.size > 0) expect(written).toEqual(before);
    }
  });

  it('scores every corpus file in one --jsonl process as the sources do, failures in their places', async () => {
    const files = readdirSync(CORPUS, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(traj|json|jsonl)$/.test(f))
      .sort()
      .map((f) => path.join(CORPUS, f));
    expect(files.length).toBeGreaterThan(50);
    const expected = await cli('score', ...files, '--jsonl');
    expect(expected.stdout.split('\n').length).toBeGreaterThan(files.length);
    const tmpdir = tmp();
    expect(await bin({ TMPDIR: tmpdir }, 'score', ...files, '--jsonl')).toEqual(expected);
    expect(await bin({ TMPDIR: tmpdir }, 'score', ...files, '--jsonl')).toEqual(expected);
  });

  it('takes zod (dist/bin/zod.cjs, required on first use) through the cache as well', async () => {
    expect(existsSync(path.join(ROOT, 'dist', 'bin', 'zod.cjs'))).toBe(true);
    const tmpdir = tmp();
    const config = path.join(tmpdir, 'config.json');
    writeFileSync(config, '{ "weights": { "coh": 2 } }');
    const expected = await cli('score', RUNS[0]!, '--json', '--config', config);
    expect(await bin({ TMPDIR: tmpdir }, 'score', RUNS[0]!, '--json')).toEqual(await cli('score', RUNS[0]!, '--json'));
    expect([...cached(tmpdir).keys()].map((f) => path.basename(f).replace(/-.*/, ''))).toEqual(['score']);
    expect(await bin({ TMPDIR: tmpdir }, 'score', RUNS[0]!, '--json', '--config', config)).toEqual(expected);
    const written = cached(tmpdir);
    expect([...written.keys()].map((f) => path.basename(f).replace(/-.*/, '')).sort()).toEqual(['score', 'zod']);
    expect(await bin({ TMPDIR: tmpdir }, 'score', RUNS[0]!, '--json', '--config', config)).toEqual(expected);
    expect(cached(tmpdir)).toEqual(written);
  });

  it('keeps a cache per set of V8 flags, which V8 would refuse to mix', async () => {
    const tmpdir = tmp();
    const expected = await cli('score', RUNS[0]!, '--json');
    const plain = await bin({ TMPDIR: tmpdir }, 'score', RUNS[0]!, '--json');
    expect(plain).toEqual(expected);
    const one = cached(tmpdir);
    expect(one.size).toBe(1);
    // The same command under another V8 flag, by the command line and by NODE_OPTIONS: a cache file each, and
    // each run after the first of its kind leaves every file as it was (none refused and written again).
    const flagged = async (): Promise<void> => {
      const r = await promisify(execFile)(process.execPath, ['--stack-size=2000', BIN, 'score', RUNS[0]!, '--json'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, TMPDIR: tmpdir } });
      expect(r.stdout).toBe(expected.stdout);
    };
    await flagged();
    await bin({ TMPDIR: tmpdir, NODE_OPTIONS: '--max-semi-space-size=32' }, 'score', RUNS[0]!, '--json');
    const three = cached(tmpdir);
    expect(three.size).toBe(3);
    for (const [f, t] of one) expect(three.get(f)).toBe(t);
    await flagged();
    expect(await bin({ TMPDIR: tmpdir }, 'score', RUNS[0]!, '--json')).toEqual(expected);
    await bin({ TMPDIR: tmpdir, NODE_OPTIONS: '--max-semi-space-size=32' }, 'score', RUNS[0]!, '--json');
    expect(cached(tmpdir)).toEqual(three);
  });

  it.skipIf(!('moduleLoadList' in process))("loads none of Node's thread or promise-fs modules for one run, and threads for --jobs 2", async () => {
    // Node's own list of the modules it loaded, written when the bin's process exits.
    const probe = path.join(tmp(), 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => require('node:fs').writeFileSync(process.env.PROBE_OUT, process.moduleLoadList.join('\\n')));\n");
    const loaded = async (...args: string[]): Promise<string[]> => {
      const out = path.join(path.dirname(probe), `loaded-${n++}.txt`);
      await promisify(execFile)(process.execPath, ['--require', probe, BIN, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, PROBE_OUT: out } });
      return readFileSync(out, 'utf8').split('\n');
    };
    const one = await loaded('score', RUNS[0]!, '--json');
    expect(one).toContain('NativeModule crypto');
    for (const m of ['worker_threads', 'fs/promises', 'timers/promises']) expect(one).not.toContain(`NativeModule ${m}`);
    expect(await loaded('score', RUNS[0]!, RUNS[1]!, '--jsonl', '--jobs', '2')).toContain('NativeModule worker_threads');
  });

  it('writes no cache for --help, a failed run, nor with NODE_DISABLE_COMPILE_CACHE=1', async () => {
    const tmpdir = tmp();
    expect((await bin({ TMPDIR: tmpdir }, 'score', '--help')).code).toBe(0);
    // A run that fails compiles little: its cache would stay (it is used, so never written again), and every run
    // after it compile the rest again.
    expect((await bin({ TMPDIR: tmpdir }, 'score', path.join(tmpdir, 'missing.traj'), '--json')).code).toBe(1);
    expect(await bin({ TMPDIR: tmpdir, NODE_DISABLE_COMPILE_CACHE: '1' }, 'score', RUNS[0]!, '--json')).toEqual(await cli('score', RUNS[0]!, '--json'));
    expect(cached(tmpdir).size).toBe(0);
  });

  it('works the same where no cache can be written (a temp folder that is a file)', async () => {
    const file = path.join(tmp(), 'not-a-folder');
    writeFileSync(file, '');
    const expected = await cli('score', RUNS[0]!, '--json');
    expect(await bin({ TMPDIR: file }, 'score', RUNS[0]!, '--json')).toEqual(expected);
    expect(await bin({ TMPDIR: file }, 'score', RUNS[0]!, '--json')).toEqual(expected);
  });
});
