/**
 * `steplens score FILE... --jobs N`: the files scored on N threads (the main thread and N-1 workers), printed
 * exactly as one thread prints them, in the order given: the same bytes on stdout and stderr, the same exit code,
 * a file that cannot be read still a line in its place. Workers start from compiled JavaScript only, so these
 * run the built bin (`npm test` builds first) and the built worker module.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { SteplensError } from '../../src/errors.js';
import { jobCount, runFilesInWorkers, workerSetup, type FileOutput } from '../../src/cli/file-workers.js';
import { packageRoot } from '../../src/package-files.js';
import { CORPUS } from './run-cli.js';

const ROOT = packageRoot();
const BIN = path.join(ROOT, 'dist', 'bin', 'steplens.js');
const dir = mkdtempSync(path.join(tmpdir(), 'steplens-score-jobs-'));
const RUNS = [
  'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json',
  'christsakm__Trajectories/TODO/dask__dask-8685/trace_01_gpt-5-2025-08-07/dask__dask-8685.traj',
  'OpenHands__OpenHands/evaluation/benchmarks/multi_swe_bench/examples/output.jsonl',
].map((f) => path.join(CORPUS, f));

async function bin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 26 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * `runFilesInWorkers` with a worker module of the test's own (`entry`): each file's output is its name, from the
 * main thread or the worker alike; a file of a worker that dies is `failed FILE: WHY`.
 */
async function runOwn(entry: string, files: string[], jobs: number): Promise<{ code: number; lines: string[] }> {
  const written: FileOutput[] = [];
  const code = await runFilesInWorkers({
    entry: `file://${entry}`,
    command: 'test',
    data: {},
    files,
    jobs,
    write: (out) => written.push(out),
    local: async (file) => ({ stdout: `${file}\n`, stderr: '', code: 0 }),
    failed: (file, why) => ({ stdout: `failed ${file}: ${why}\n`, stderr: '', code: 1 }),
  });
  if (code === undefined) throw new Error('runFilesInWorkers ran nothing: the entry is not a .js file');
  return {
    code,
    lines: written
      .map((o) => o.stdout)
      .join('')
      .trimEnd()
      .split('\n'),
  };
}

describe('score --jobs', () => {
  it('prints on 3 threads what one thread prints, a missing file a line in its place', async () => {
    const missing = path.join(dir, 'missing.traj');
    // More files than threads, so every thread takes several; repeated files are scored again each time.
    const files = [RUNS[0]!, missing, RUNS[1]!, RUNS[2]!, RUNS[0]!, RUNS[1]!, RUNS[2]!];
    const one = await bin('score', ...files, '--jsonl', '--jobs', '1');
    const three = await bin('score', ...files, '--jsonl', '--jobs', '3');
    expect(one.code).toBe(1);
    expect(three).toEqual(one);
    const lines = three.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; error?: { code: string } });
    expect(lines[1]).toEqual({ file: missing, error: { code: 'bad_input', message: `cannot read ${missing}: no such file` } });
    expect(lines.map((l) => l.file)).toEqual([RUNS[0], missing, RUNS[1], ...Array<string>(3).fill(RUNS[2]!), RUNS[0], RUNS[1], ...Array<string>(3).fill(RUNS[2]!)]);
  });

  it('prints the human reports, with warnings on stderr, as one thread does', async () => {
    const files = [...RUNS, ...RUNS];
    const one = await bin('score', ...files, '--task', 'pylint-dev__astroid-1196', '--jobs', '1');
    const two = await bin('score', ...files, '--task', 'pylint-dev__astroid-1196', '--jobs', '2');
    expect(two).toEqual(one);
    expect(one.stdout.match(/^== /gm)).toHaveLength(6);
  });

  it('takes a whole number of threads or auto, and says what is wrong otherwise', async () => {
    for (const bad of ['0', 'two', '1.5', '257']) {
      expect(() => jobCount(bad, RUNS.length)).toThrow(SteplensError);
      const run = await bin('score', ...RUNS, '--jsonl', '--jobs', bad);
      expect(run).toEqual({ code: 1, stdout: '', stderr: `steplens score: --jobs must be a whole number from 1 to 256, or auto (got '${bad}')\n` });
    }
    expect(jobCount('4', RUNS.length)).toBe(3);
    expect(jobCount('4', 1)).toBe(1);
    expect(jobCount(undefined, RUNS.length)).toBe(1);
    expect(jobCount('auto', 100)).toBe(availableParallelism());
  });

  it('tells the main thread it is no worker without loading node:worker_threads', () => {
    const loads = vi.spyOn(process, 'getBuiltinModule');
    try {
      expect(workerSetup('score')).toBeUndefined();
      expect(jobCount('2', 5)).toBe(2);
      expect(loads).not.toHaveBeenCalled();
    } finally {
      loads.mockRestore();
    }
  });

  it('starts workers from a CommonJS module, as the bin command files are (dist/bin/commands/NAME.cjs)', async () => {
    // What a command's worker does (file-workers.ts's serveFiles), written out: ready, then an answer per file,
    // marked so that the files a worker scored can be told from the main thread's.
    const entry = path.join(dir, 'entry.cjs');
    writeFileSync(
      entry,
      "const { parentPort } = require('node:worker_threads');\n" +
        "parentPort.on('message', (job) => parentPort.postMessage({ i: job.i, out: { stdout: 'worker ' + job.file + '\\n', stderr: '', code: 0 } }));\n" +
        'parentPort.postMessage({ ready: true });\n',
    );
    const files = Array.from({ length: 40 }, (_, i) => `f${i}`);
    const { code, lines } = await runOwn(entry, files, 2);
    expect(code).toBe(0);
    expect(lines.map((l) => l.replace(/^worker /, ''))).toEqual(files);
    expect(lines.filter((l) => l.startsWith('worker ')).length).toBeGreaterThan(0);
  });

  it('a worker that cannot start hands its files back: the main thread scores them, in their places', async () => {
    const entry = path.join(dir, 'broken.js');
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    writeFileSync(entry, "throw new Error('this worker cannot load');\n");
    const files = Array.from({ length: 30 }, (_, i) => `f${i}`);
    const { code, lines } = await runOwn(entry, files, 3);
    expect(code).toBe(0);
    expect(lines).toEqual(files);
  });

  it('a worker that dies fails its files, each in its place; the other threads do the rest', async () => {
    // A worker module of its own (compiled file-workers.js): it answers with the file's name, and dies on "die".
    const entry = path.join(dir, 'entry.js');
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    const workers = path.join(ROOT, 'dist', 'src', 'cli', 'file-workers.js');
    writeFileSync(
      entry,
      `import { serveFiles, workerSetup } from ${JSON.stringify(workers)};\n` +
        `if (workerSetup('test') !== undefined) serveFiles(async (file) => { if (file === 'die') process.exit(3); return { stdout: file + '\\n', stderr: '', code: 0 }; });\n`,
    );
    // The worker takes the first files (its run is handed out as it starts, before the main thread takes any): "die" is among them.
    const files = Array.from({ length: 40 }, (_, i) => (i === 5 ? 'die' : `f${i}`));
    const { code, lines } = await runOwn(entry, files, 2);
    expect(code).toBe(1);
    expect(lines[5]).toBe('failed die: its worker thread exited with code 3');
    // Each file once, in order: the worker's others done or failed with it, every file after its run done.
    lines.forEach((line, i) => expect(line === files[i] || (i < 16 && line.startsWith(`failed ${files[i]}: `))).toBe(true));
    expect(lines).toHaveLength(40);
    expect(lines.slice(16)).toEqual(files.slice(16));
  });
});
