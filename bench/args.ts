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

/**
 * `--nice -5` as `--nice=-5`: parseArgs takes a value starting with a dash for a flag of its own and calls the
 * command line ambiguous, but no script has a flag that looks like a number, so the value is the flag's (and a
 * negative count then gets the line saying what the flag needs).
 */
function negativeValues(config: ParseArgsConfig, args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const next = args[i + 1];
    const option = a.startsWith('--') && !a.includes('=') ? config.options?.[a.slice(2)] : undefined;
    if (option?.type === 'string' && next !== undefined && /^-(?:\d|\.\d)/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** `args` read by `config`; `--help` or `-h` before a `--` asks for the usage. */
export function readArgs<const T extends ParseArgsConfig>(config: T, args: readonly string[]): ArgsRead<ReturnType<typeof parseArgs<T>>> {
  const end = args.indexOf('--');
  if ((end < 0 ? args : args.slice(0, end)).some((a) => a === '--help' || a === '-h')) return { kind: 'help' };
  try {
    return { kind: 'ok', parsed: parseArgs<T>({ ...config, args: negativeValues(config, args) }) };
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

/** What a numeric flag must hold, in the words its error line uses. */
export type NumberKind = 'number' | 'positive number' | 'non-negative number' | 'rate between 0 and 1' | 'integer' | 'positive integer' | 'non-negative integer';

const NUMBER_CHECKS: Record<NumberKind, (x: number) => boolean> = {
  number: () => true,
  'positive number': (x) => x > 0,
  'non-negative number': (x) => x >= 0,
  'rate between 0 and 1': (x) => x >= 0 && x <= 1,
  integer: (x) => Number.isSafeInteger(x),
  'positive integer': (x) => Number.isSafeInteger(x) && x > 0,
  'non-negative integer': (x) => Number.isSafeInteger(x) && x >= 0,
};

/** `text` as a number of `kind`, or undefined (`Number` alone reads '' as 0 and 'x' as NaN, which the scripts then looped on or ran with). */
export function readNumber(text: string, kind: NumberKind): number | undefined {
  const x = Number(text);
  return text.trim() !== '' && Number.isFinite(x) && NUMBER_CHECKS[kind](x) ? x : undefined;
}

/** `a` or `an` before a kind's name. */
const article = (kind: NumberKind): string => (/^[aeiou]/.test(kind) ? 'an' : 'a');

/**
 * An argument's value (`name`: `--rounds`, or a position's name such as `RUNS`) as a number of `kind`: `fallback` when
 * it is not given, else one line naming it and what it needs, exit 2. Read before any work starts, so a typo costs none.
 */
export function numberArg(value: string | undefined, name: string, kind: NumberKind, fallback?: number): number {
  if (value === undefined) return fallback ?? argsError(`${name} needs a value`);
  return readNumber(value, kind) ?? argsError(`${name} needs ${article(kind)} ${kind}, got '${value}'`);
}

/** A flag's value (`values[flag]`, parseArgs' result) as a number of `kind`; see {@link numberArg}. */
export function numberFlag<V extends object>(values: V, flag: keyof V & string, kind: NumberKind, fallback?: number): number {
  const value = values[flag];
  return numberArg(typeof value === 'string' ? value : undefined, `--${flag}`, kind, fallback);
}

/** A flag's comma-separated list of numbers of `kind` (`--connections 16,64`); one line naming the bad item, exit 2. */
export function numberListFlag<V extends object>(values: V, flag: keyof V & string, kind: NumberKind, fallback: readonly number[] = []): number[] {
  const value = values[flag];
  if (typeof value !== 'string') return [...fallback];
  return value.split(',').map((item) => readNumber(item, kind) ?? argsError(`--${flag} needs ${kind}s separated by commas, got '${item}' in '${value}'`));
}
