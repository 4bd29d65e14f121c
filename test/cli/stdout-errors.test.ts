/**
 * The bin (dist/bin/steplens.js, built by `npm test`'s build) when its stdout cannot be written: a full disk
 * (`> /dev/full`) is one line on stderr and exit 1, never a stack trace (review s42).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/package-files.js';

const ROOT = packageRoot();
const BIN = path.join(ROOT, 'dist', 'bin', 'steplens.js');
const DASK = path.join(ROOT, 'examples/runs/swe-agent-1/kimi-k2-instruct-0905/dask__dask-8685.traj');

/** Runs the bin with stdout on `fd`; resolves with its exit code and stderr. */
function run(fd: number, ...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['ignore', fd, 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => void (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the bin when stdout cannot be written', () => {
  it.skipIf(!existsSync('/dev/full'))(
    'a full device: one line naming the cause, exit 1, no stack trace',
    async () => {
      const full = openSync('/dev/full', 'w');
      try {
        for (const args of [['score', DASK, '--json'], ['label', DASK], ['--version']]) {
          const r = await run(full, ...args);
          expect(r.code, args.join(' ')).toBe(1);
          expect(r.stderr, args.join(' ')).toBe(`steplens ${args[0]}: cannot write stdout: no space left on the device\n`);
        }
      } finally {
        closeSync(full);
      }
    },
    60_000,
  );
});
