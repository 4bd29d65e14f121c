/**
 * Per-file CPU log, on when STEPLENS_FILE_CPU names a JSONL file (`STEPLENS_FILE_CPU=/tmp/cpu.jsonl npx vitest run`):
 * a setup file that vitest runs before each test file, so it sees the file's import, collection and tests. It
 * appends the worker's own CPU (process.cpuUsage: its threads, servers on worker threads included), the CPU of the
 * child processes it reaped meanwhile (/proc/self/stat cutime + cstime: CLI runs, npm, Python, Redis) and the wall.
 * CPU follows the work, not the load; on a shared machine a file's wall does not (CONTRIBUTING.md, "Tests").
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

const LOG = process.env.STEPLENS_FILE_CPU;
const TICKS_PER_S = 100; // USER_HZ on Linux

/** CPU (ms) of the child processes this process has waited for, or 0 where /proc is missing. */
function childrenMs(): number {
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): cutime and cstime are the 14th and 15th.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(')').pop()!.trim().split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

if (LOG) {
  const own = process.cpuUsage();
  const children = childrenMs();
  const began = performance.now();
  const file = expect.getState().testPath ?? '?';
  afterAll(() => {
    const used = process.cpuUsage(own);
    const row = {
      file: file.slice(file.indexOf('/test/') + 1),
      ownMs: Math.round((used.user + used.system) / 1000),
      childrenMs: Math.round(childrenMs() - children),
      wallMs: Math.round(performance.now() - began),
      pid: process.pid,
    };
    appendFileSync(LOG, `${JSON.stringify(row)}\n`);
  });
}
