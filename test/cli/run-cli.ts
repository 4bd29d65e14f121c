/** Runs the CLI in-process and captures its output. */
import { runCli } from '../../src/cli/main.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    stderrIsTTY: false,
    cwd: process.cwd(),
    env: {},
  });
  return { code, stdout, stderr };
}

export const CORPUS = `${CORPUS_DIR}/`;

/** Flags whose command writes a file a test then reads: such a run is never shared. */
const WRITES = new Set(['--out', '--out-dir', '--save-runs', '--config-out']);
const shared = new Map<string, Promise<CliRun>>();

/**
 * {@link cli}, run once per distinct argument list in a test worker and shared by every identical call after it (test
 * files of a worker share modules: vitest.config.ts, `isolate: false`). For commands that only read committed
 * fixtures and are deterministic: a calibration over the 1002-run fixture costs 4-15 s of CPU, and several files
 * assert on the same command line's output (bench/README.md, "suite29"). A copy each call, so no caller sees another's.
 */
export async function cliShared(...argv: string[]): Promise<CliRun> {
  if (argv.some((a) => WRITES.has(a))) throw new Error(`cliShared: ${argv.join(' ')} writes files; use cli()`);
  const key = JSON.stringify([process.cwd(), argv]);
  let run = shared.get(key);
  if (!run) {
    run = cli(...argv);
    shared.set(key, run);
  }
  return { ...(await run) };
}
