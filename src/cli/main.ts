#!/usr/bin/env node
/** The `steplens` command line: dispatches to one command module per verb. */
import { realpathSync } from 'node:fs';
import nodeModule from 'node:module';
import { fileURLToPath } from 'node:url';
import { isSteplensError, parseArgsMessage } from '../errors.js';
import { packageVersion } from '../package-files.js';
import { escapeControl, printable } from '../printable.js';
import { configureInputLimit } from '../text-files.js';
import type { CliIO } from './command.js';
import { writeError } from './output-files.js';
import { COMMAND_NAMES, commandSummaries, loadCommand } from './registry.js';

function usage(commands: ReadonlyArray<{ name: string; summary: string }>): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `usage: steplens <command> [options]\n       steplens --version\n\ncommands:\n${lines.join('\n')}\n\nRun 'steplens <command> --help' for a command's options.\n`;
}

/**
 * What commands write through: every control character escaped ({@link escapeControl}), so text taken
 * from a log (a task name, a command, an error quoting a line) cannot drive the terminal; JSON output
 * keeps its values (the escapes are JSON escapes). Only `status` writes `\r` and erase-line, around
 * escaped text.
 */
function safeIO(io: CliIO): CliIO {
  const { status: _, ...rest } = io;
  return {
    ...rest,
    stdout: (s) => io.stdout(escapeControl(s)),
    stderr: (s) => io.stderr(escapeControl(s)),
    ...(io.stderrIsTTY ? { status: (line: string) => io.stderr(`\r${printable(line)}\x1b[K`) } : {}),
  };
}

/** Runs the CLI with the given arguments; returns the exit code. */
export async function runCli(argv: string[], rawIO: CliIO): Promise<number> {
  const io = safeIO(rawIO);
  const [verb, ...rest] = argv;
  if (verb === '--version' || verb === '-V' || verb === 'version') {
    io.stdout(`steplens ${packageVersion()}\n`);
    return 0;
  }
  if (verb === undefined) {
    // One line naming what is wrong, as for an unknown command; the whole usage is one --help away.
    io.stderr(`steplens: no command given (one of: ${COMMAND_NAMES.join(', ')}); 'steplens --help' prints the usage\n`);
    return 1;
  }
  if (verb === '--help' || verb === '-h' || verb === 'help') {
    io.stdout(usage(commandSummaries()));
    return 0;
  }
  const command = await loadCommand(verb);
  if (!command) {
    io.stderr(`steplens: unknown command '${verb}' (known: ${COMMAND_NAMES.join(', ')})\n`);
    return 1;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout(`${command.usage}\n`);
    return 0;
  }
  try {
    const limit = configureInputLimit(io.env);
    if (!limit.ok) throw limit.error;
    return await command.run(rest, io);
  } catch (error) {
    if (isSteplensError(error)) {
      io.stderr(`steplens ${verb}: ${printable(error.message)}\n`);
      return 1;
    }
    const argsMessage = parseArgsMessage(error, command.usage);
    if (argsMessage !== undefined) {
      io.stderr(`steplens ${verb}: ${printable(argsMessage)}\n`);
      return 1;
    }
    io.stderr(`steplens ${verb}: internal error: ${printable(error instanceof Error ? error.message : String(error))}\n`);
    if (io.env.STEPLENS_DEBUG) io.stderr(`${error instanceof Error ? error.stack : ''}\n`);
    return 1;
  }
}

/**
 * True when this module is the process's entry point: run as `node dist/src/cli/main.js`, or through the
 * `steplens` bin, which npm links as node_modules/.bin/steplens -> this file (so paths compare after realpath).
 */
function invokedAsMain(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedAsMain()) {
  // Node >= 22.1 keeps V8's code for the modules its loaders read on disk (os.tmpdir()/node-compile-cache): this
  // file and, run from dist/src (tsc's output), the modules of the command it runs (issue 24). The bin's command
  // files have a cache of their own, on every Node (code-cache.ts). NODE_DISABLE_COMPILE_CACHE=1 turns both off.
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // `steplens label run.traj | head`: a reader that stops early is not an error. Any other failure to write (a full
  // disk, `> /dev/full`) is the command's one-line error, not a stack trace (review s42).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    process.stderr.write(`steplens ${process.argv[2] ?? ''}: ${printable(writeError('stdout', error).message)}\n`);
    process.exit(1);
  });
  const io: CliIO = {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    cwd: process.cwd(),
    env: process.env,
  };
  runCli(process.argv.slice(2), io).then(
    (code) => {
      if (code !== 0 || !['serve'].includes(process.argv[2] ?? '')) process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`steplens: ${printable(error instanceof Error ? error.message : String(error))}\n`);
      process.exitCode = 1;
    },
  );
}
