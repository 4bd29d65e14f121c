/**
 * The `steplens` bin is the esbuild bundle dist/bin/steplens.js (scripts/cli-bundle.mjs), built by `npm test`'s
 * build: a small main file plus one file per command (`serve` too: test/cli/serve-bundle.test.ts). It must answer
 * exactly as the CLI run from the sources does, and errors made by a command file's copy of the code must still be
 * one line.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot, packageVersion } from '../../src/package-files.js';
import { CORPUS, cli } from './run-cli.js';

const ROOT = packageRoot();
const BIN = path.join(ROOT, (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: { steplens: string } }).bin.steplens);
const MINI = path.join(CORPUS, 'SWE-agent__mini-swe-agent__pull-refs/output/deepseek_chat_dev/pylint-dev__astroid-1196/pylint-dev__astroid-1196.traj.json');
const DASK = path.join(CORPUS, 'christsakm__Trajectories/TODO/dask__dask-8685/trace_01_gpt-5-2025-08-07/dask__dask-8685.traj');

async function bin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the bundled bin', () => {
  it('is the package bin, a small main file that holds no command', () => {
    expect(path.relative(ROOT, BIN)).toBe(path.join('dist', 'bin', 'steplens.js'));
    // Commands (and zod, the formats, the scorer) are in dist/bin/commands/*.cjs, loaded when run.
    expect(statSync(BIN).size).toBeLessThan(32 * 1024);
    expect(readFileSync(BIN, 'utf8')).not.toMatch(/\$constructor|tree-sitter|fastify/);
  });

  it('prints the version and the help as the sources do', async () => {
    expect((await bin('--version')).stdout).toBe(`steplens ${packageVersion()}\n`);
    expect((await bin('--help')).stdout).toBe((await cli('--help')).stdout);
    expect((await bin('score', '--help')).stdout).toBe((await cli('score', '--help')).stdout);
  });

  it('scores as the sources do, one run and several (--jsonl)', async () => {
    const one = await bin('score', MINI, '--json');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe((await cli('score', MINI, '--json')).stdout);
    const many = await bin('score', MINI, DASK, '--jsonl');
    expect(many.stdout).toBe((await cli('score', MINI, DASK, '--jsonl')).stdout);
    expect((await bin('label', DASK, '--json')).stdout).toBe((await cli('label', DASK, '--json')).stdout);
  });

  it("prints a one-line error for bad usage of serve, whose error class is its command file's copy", async () => {
    const run = await bin('serve', '--port', 'nope');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("steplens serve: --port must be 0-65535 (got 'nope')\n");
  });
});
