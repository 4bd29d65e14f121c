/**
 * A small table file read as records: CSV with a header row, or JSON Lines objects (the first non-blank line decides).
 * Errors name the line as an editor numbers it (blank lines counted). A CSV row shorter than the header lacks the last
 * columns' keys (an entry can tell a missing cell from an empty one); a quote left open is refused.
 */
import { SteplensError, err, ok, type Result } from '../errors.js';

/** Splits one CSV line (double quotes quote, `""` is a quote); undefined when a quote is left open. */
export function splitCsvLine(line: string): string[] | undefined {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  if (quoted) return undefined;
  out.push(cur);
  return out.map((s) => s.trim());
}

/** How rows about one thing are told apart: `key` names what a row is about (e.g. `run r1`); undefined: rows are never compared. */
export type RowKey<T> = (entry: T) => string;

const fail = (where: string, why: string) => err(new SteplensError('bad_input', `${where}: ${why}`));

/**
 * Parses every record with `entry` (given where it is, e.g. `file.csv line 3`); `header` checks a CSV header
 * (lower-cased names) and says what is missing. With `key`, a second row about the same thing that says otherwise is
 * refused naming both lines, as `--manifest` refuses one (which of them is right cannot be guessed); a repeated
 * identical row is read once.
 */
export function parseRecordTable<T>(
  text: string,
  name: string,
  header: (names: string[]) => string | undefined,
  entry: (rec: Record<string, unknown>, where: string) => Result<T>,
  key?: RowKey<T>,
): Result<T[]> {
  const lines = text
    .split(/\r?\n/)
    .map((line, i) => ({ line, n: i + 1 }))
    .filter((l) => l.line.trim() !== '');
  const out: T[] = [];
  const seen = new Map<string, { value: T; n: number }>();
  const add = (value: T, n: number): Result<void> => {
    const k = key?.(value);
    const first = k !== undefined ? seen.get(k) : undefined;
    if (first === undefined) {
      if (k !== undefined) seen.set(k, { value, n });
      out.push(value);
    } else if (JSON.stringify(first.value) !== JSON.stringify(value)) return fail(`${name} line ${n}`, `a second row for ${k} (first on line ${first.n}) that says otherwise`);
    return ok(undefined);
  };
  if (lines[0]?.line.trim().startsWith('{')) {
    for (const { line, n } of lines) {
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        return fail(`${name} line ${n}`, 'not valid JSON');
      }
      if (typeof rec !== 'object' || rec === null) return fail(`${name} line ${n}`, 'expected an object');
      const e = entry(rec as Record<string, unknown>, `${name} line ${n}`);
      if (!e.ok) return e;
      const added = add(e.value, n);
      if (!added.ok) return added;
    }
    return ok(out);
  }
  const head = lines[0] !== undefined ? splitCsvLine(lines[0].line) : [];
  if (head === undefined) return fail(`${name} line ${lines[0]!.n}`, 'a quote is not closed');
  const names = head.map((h) => h.toLowerCase());
  const problem = header(names);
  if (problem !== undefined) return fail(name, problem);
  for (const { line, n } of lines.slice(1)) {
    const cells = splitCsvLine(line);
    if (cells === undefined) return fail(`${name} line ${n}`, 'a quote is not closed (a cell holding a line break is not read)');
    const e = entry(Object.fromEntries(names.slice(0, cells.length).map((h, j) => [h, cells[j]!])), `${name} line ${n}`);
    if (!e.ok) return e;
    const added = add(e.value, n);
    if (!added.ok) return added;
  }
  return ok(out);
}
