/**
 * STEPLENS_MAX_INPUT_BYTES in the bundled bin (dist/bin/steplens.js, built by `npm test`'s build): every command file
 * of the bundle has its own copy of text-files.ts, and each must apply the limit, as the worker threads of
 * `score --jobs` do (review s42: main configured only its own copy, so the variable changed nothing).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';

const ROOT = packageRoot();
const BIN = path.join(ROOT, 'dist', 'bin', 'steplens.js');
const EXAMPLES = path.join(ROOT, 'examples/runs');
/** 547,575 bytes. */
const DASK = path.join(EXAMPLES, 'swe-agent-1/kimi-k2-instruct-0905/dask__dask-8685.traj');
/** 11,602 bytes. */
const ATIF = path.join(EXAMPLES, 'atif/regex-log/trajectory.json');
const OVER = '547575 bytes, over the input limit of 102400 bytes (STEPLENS_MAX_INPUT_BYTES)';

async function bin(limit: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const env = { ...process.env, STEPLENS_MAX_INPUT_BYTES: limit };
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000, maxBuffer: 1 << 26 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('STEPLENS_MAX_INPUT_BYTES in the bundled bin', () => {
  it('every command that reads a log refuses one over the limit, with one line naming it', async () => {
    for (const args of [
      ['label', DASK],
      ['score', DASK],
      ['convert', DASK],
      ['rank', DASK],
      ['build-pta', '--task', 't', '--out', path.join(mkdtempSync(path.join(tmpdir(), 'steplens-limit-')), 'pta.json'), DASK, ATIF],
    ]) {
      const r = await bin('100K', ...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toContain(OVER);
    }
  }, 120_000);

  it('score --jobs 2 refuses it on the main thread and in the worker alike; a small log is scored', async () => {
    const r = await bin('100K', 'score', DASK, DASK, ATIF, '--jsonl', '--jobs', '2');
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { error?: { message: string }; score?: unknown });
    expect(lines.map((l) => l.error?.message.includes(OVER) ?? false)).toEqual([true, true, false]);
    expect(lines[2]?.score).toBeDefined();
  }, 120_000);

  it('report skips the log over the limit, naming it, and reads the other', async () => {
    const r = await bin('100K', 'report', path.join(EXAMPLES, 'swe-agent-0'), '--json');
    expect(r.stderr).toContain('doubao-pro-128k/fasterxml__jackson-databind-4486.traj: 756756 bytes, over the input limit of 102400 bytes');
    expect((JSON.parse(r.stdout) as { inputs: { trajectories: number } }).inputs.trajectories).toBe(1);
  }, 120_000);

  it('a bad value is one usage line naming the variable', async () => {
    const r = await bin('lots', 'label', ATIF);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("steplens label: STEPLENS_MAX_INPUT_BYTES must be a number of bytes from 1 to 536870888 (K, M, G allowed), got 'lots'\n");
  });
});
