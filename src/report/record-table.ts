/** A small table file read as records: CSV with a header row, or JSON Lines objects (the first non-blank line decides). */
import { SteplensError, err, ok, type Result } from '../errors.js';

/** Splits one CSV line (double quotes quote, `""` is a quote). */
export function splitCsvLine(line: string): string[] {
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
  out.push(cur);
  return out.map((s) => s.trim());
}

/**
 * Parses every record with `entry` (given where it is, e.g. `file.csv line 3`);
 * `header` checks a CSV header (lower-cased names) and says what is missing.
 */
export function parseRecordTable<T>(text: string, name: string, header: (names: string[]) => string | undefined, entry: (rec: Record<string, unknown>, where: string) => Result<T>): Result<T[]> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const out: T[] = [];
  if (lines[0]?.trim().startsWith('{')) {
    for (const [i, line] of lines.entries()) {
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        return err(new SteplensError('bad_input', `${name} line ${i + 1}: not valid JSON`));
      }
      if (typeof rec !== 'object' || rec === null) return err(new SteplensError('bad_input', `${name} line ${i + 1}: expected an object`));
      const e = entry(rec as Record<string, unknown>, `${name} line ${i + 1}`);
      if (!e.ok) return e;
      out.push(e.value);
    }
    return ok(out);
  }
  const names = splitCsvLine(lines[0] ?? '').map((h) => h.toLowerCase());
  const problem = header(names);
  if (problem !== undefined) return err(new SteplensError('bad_input', `${name}: ${problem}`));
  for (const [i, line] of lines.slice(1).entries()) {
    const cells = splitCsvLine(line);
    const e = entry(Object.fromEntries(names.map((h, j) => [h, cells[j] ?? ''])), `${name} line ${i + 2}`);
    if (!e.ok) return e;
    out.push(e.value);
  }
  return ok(out);
}
