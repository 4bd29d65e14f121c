/**
 * The shape of one CLI command. `main.ts` dispatches to these; each command
 * parses its own flags (node:util parseArgs) and throws `SteplensError` for
 * bad usage or input, which main prints as one line (exit 1).
 */

export interface CliIO {
  // Function properties, not methods: commands pass `io.stderr` on detached.
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** True when stderr is a terminal (progress bars only then). */
  stderrIsTTY: boolean;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /**
   * Rewrites the last stderr line (a progress bar). `runCli` sets it, only when stderr is a terminal: the
   * `stdout` and `stderr` a command gets escape every control character, so a bar cannot use them.
   */
  status?: (line: string) => void;
}

export interface Command {
  name: string;
  summary: string;
  usage: string;
  /** Returns the exit code. Long-running commands (serve) resolve when they stop. */
  run(args: string[], io: CliIO): Promise<number>;
}
