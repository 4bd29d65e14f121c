/**
 * The bench scripts' command lines. `--help` prints the script's usage and exits 0; a flag it does not take, a flag
 * without its value or an argument it takes none of is one line naming it and exit 2 (parseArgs threw a stack trace).
 * The usage is bench/README.md's table row for the script (the one place it is written, so it cannot drift), else
 * the one the script gives (a script without a row).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** What a command line asks for: its flags, its usage, or an error naming what is wrong. */
export type ArgsRead<T> = { kind: 'ok'; parsed: T } | { kind: 'help' } | { kind: 'error'; message: string };

/** The first sentence of parseArgs' message (the rest tells how to pass a positional starting with `-`, which these scripts take none of). */
const firstSentence = (message: string): string => /^.*?(?:\.(?=\s)|$)/.exec(message)![0].replace(/\.$/, '');

/** `args` read by `config`; `--help` or `-h` before a `--` asks for the usage. */
export function readArgs<const T extends ParseArgsConfig>(config: T, args: readonly string[]): ArgsRead<ReturnType<typeof parseArgs<T>>> {
  const end = args.indexOf('--');
  if ((end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h')) return { kind: 'help' };
  try {
    return { kind: 'ok', parsed: parseArgs<T>({ ...config, args: [...args] }) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw error;
    return { kind: 'error', message: firstSentence((error as Error).message) };
  }
}

/** Markdown of a table cell as plain text: code spans unwrapped, `\|` a bar. */
const plain = (cell: string): string => cell.replace(/`/g, '').replace(/\\\|/g, '|').trim();

/** The command column of bench/README.md's row for `name` (its first column lists the bench names in backticks). */
export function readmeUsage(readme: string, name: string): string | undefined {
  for (const line of readme.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const cells = line.split(/(?<!\\)\|/).slice(1, -1);
    const names = [...(cells[0] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    if (names.includes(name) && cells[1] !== undefined) return plain(cells[1]);
  }
  return undefined;
}

/** bench/README.md beside the sources, from dist/bench/ or bench/ (absent in a copy without it). */
function readme(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const file = [path.join(here, 'README.md'), path.join(here, '../../bench/README.md')].find((f) => existsSync(f));
  return file === undefined ? '' : readFileSync(file, 'utf8');
}

/** This script's name (`ws-load` for dist/bench/ws-load.js). */
const scriptName = (): string => path.basename(process.argv[1] ?? 'bench').replace(/\.[cm]?[jt]s$/, '');

/** A command line the script cannot run with (a missing argument, one too many): one line naming it, exit 2. */
export function argsError(message: string): never {
  const name = scriptName();
  process.stderr.write(`${name}: ${message} (node dist/bench/${name}.js --help prints the usage)\n`);
  process.exit(2);
}

/**
 * The script's flags by `config` (parseArgs' result), or its usage on stdout and exit 0 (`--help`), or one line on
 * stderr and exit 2. `usage`: for a script that has no row in bench/README.md's table.
 */
export function benchArgs<const T extends ParseArgsConfig>(config: T, usage?: string): ReturnType<typeof parseArgs<T>> {
  const name = scriptName();
  const read = readArgs(config, process.argv.slice(2));
  if (read.kind === 'ok') return read.parsed;
  if (read.kind === 'help') {
    process.stdout.write(`usage: ${readmeUsage(readme(), name) ?? usage ?? `node dist/bench/${name}.js (see bench/${name}.ts)`}\n`);
    process.exit(0);
  }
  return argsError(read.message);
}
