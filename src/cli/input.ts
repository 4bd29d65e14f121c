/** Reading trajectory and PTA files for the CLI: every failure is a one-line `SteplensError`. */
import { SteplensError } from '../errors.js';
import { printable, readText, type ReadOptions } from '../text-files.js';
import { FORMAT_NAMES, type FormatName, type ParseResult } from '../formats/types.js';
import { parseTrajectoryText } from '../formats/index.js';
import { ptaFromJson } from '../core/pta/index.js';
import type { Pta } from '../core/scorer-api.js';

export { readText };

/** Validates a `--format` value. */
export function formatOption(value: string | undefined): FormatName | 'auto' {
  if (value === undefined || value === 'auto') return 'auto';
  if ((FORMAT_NAMES as readonly string[]).includes(value)) return value as FormatName;
  throw new SteplensError('usage', `--format must be one of auto, ${FORMAT_NAMES.join(', ')} (got '${value}')`);
}

/** Reads and parses one trajectory file in the given (or detected) format. */
export async function readTrajectory(file: string, format: FormatName | 'auto'): Promise<ParseResult> {
  const text = await readText(file);
  const parsed = parseTrajectoryText(text, format, file);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

/** Reads a PTA JSON file (`regularOnly` for a file found in a folder: see `ReadOptions`). */
export async function readPta(file: string, options: ReadOptions = {}): Promise<Pta> {
  const text = await readText(file, options);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new SteplensError('bad_input', `${file}: not JSON (${(error as Error).message})`);
  }
  const pta = ptaFromJson(doc);
  if (!pta.ok) throw new SteplensError('bad_input', `${file}: not a steplens PTA: ${pta.error}`);
  return pta.value;
}

/** Prints diagnostics to stderr, one line each, prefixed by the file. */
export function reportDiagnostics(file: string, result: ParseResult, stderr: (s: string) => void): void {
  for (const d of result.diagnostics) stderr(`${printable(`${file}: ${d.at}: ${d.message}`)}\n`);
}

/** The `--lenient` flag shared by the commands that read one trajectory. */
export const LENIENT_OPTION = { lenient: { type: 'boolean', default: false } } as const;

/**
 * Exit code after a command has printed its result: bad lines or events were
 * skipped and reported, and the result covers the rest; the input was still
 * not clean, so exit 1 unless `--lenient`.
 */
export function exitCodeFor(results: readonly ParseResult[], lenient: boolean): number {
  return !lenient && results.some((r) => r.diagnostics.length > 0) ? 1 : 0;
}
