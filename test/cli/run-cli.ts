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
