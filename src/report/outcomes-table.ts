/**
 * The `--outcomes FILE` table: CSV (header with `task`, `outcome` and
 * optionally `run`, `model`) or JSON Lines objects with the same keys
 * (`instance_id` is accepted for `task`, `resolved: bool` for `outcome`).
 */
import { SteplensError, err, ok, type Result } from '../errors.js';
import type { Outcome } from './types.js';

export interface OutcomeEntry {
  task: string;
  run?: string;
  model?: string;
  outcome: Outcome;
}

const WORDS: Record<string, Outcome> = {
  pass: 'pass', passed: 'pass', resolved: 'pass', true: 'pass', '1': 'pass', yes: 'pass',
  fail: 'fail', failed: 'fail', unresolved: 'fail', false: 'fail', '0': 'fail', no: 'fail',
  censored: 'censored', error: 'censored', unknown: 'unknown', '': 'unknown',
};

function outcomeWord(v: unknown): Outcome | undefined {
  if (typeof v === 'boolean') return v ? 'pass' : 'fail';
  return WORDS[String(v ?? '').trim().toLowerCase()];
}

export function splitCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { out.push(cur); cur = ''; } else cur += c;
  }
  out.push(cur);
  return out.map((s) => s.trim());
}

function entry(rec: Record<string, unknown>, where: string): Result<OutcomeEntry> {
  const task = rec.task ?? rec.instance_id;
  if (typeof task !== 'string' || task === '') return err(new SteplensError('bad_input', `${where}: missing task`));
  const outcome = outcomeWord(rec.outcome ?? rec.resolved);
  if (outcome === undefined) return err(new SteplensError('bad_input', `${where}: outcome '${String(rec.outcome ?? rec.resolved)}' is not one of pass, fail, censored, unknown`));
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const run = str(rec.run);
  const model = str(rec.model);
  return ok({ task, outcome, ...(run ? { run } : {}), ...(model ? { model } : {}) });
}

/** Parses an outcomes table; `name` (the file name) is used in error messages. */
export function parseOutcomesTable(text: string, name: string): Result<OutcomeEntry[]> {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const out: OutcomeEntry[] = [];
  if (lines[0]?.trim().startsWith('{')) {
    for (const [i, line] of lines.entries()) {
      let rec: unknown;
      try { rec = JSON.parse(line); } catch { return err(new SteplensError('bad_input', `${name} line ${i + 1}: not valid JSON`)); }
      if (typeof rec !== 'object' || rec === null) return err(new SteplensError('bad_input', `${name} line ${i + 1}: expected an object`));
      const e = entry(rec as Record<string, unknown>, `${name} line ${i + 1}`);
      if (!e.ok) return e;
      out.push(e.value);
    }
    return ok(out);
  }
  const header = splitCsvLine(lines[0] ?? '').map((h) => h.toLowerCase());
  if (!header.includes('task') && !header.includes('instance_id')) return err(new SteplensError('bad_input', `${name}: expected a CSV header with 'task' and 'outcome' columns, or JSON Lines`));
  if (!header.includes('outcome') && !header.includes('resolved')) return err(new SteplensError('bad_input', `${name}: CSV header has no 'outcome' column`));
  for (const [i, line] of lines.slice(1).entries()) {
    const cells = splitCsvLine(line);
    const rec = Object.fromEntries(header.map((h, j) => [h, cells[j] ?? '']));
    const e = entry(rec, `${name} line ${i + 2}`);
    if (!e.ok) return e;
    out.push(e.value);
  }
  return ok(out);
}

/**
 * Looks a trajectory up in the table: an entry with matching task and run
 * wins, then task and model, then an entry that names neither run nor model.
 */
export function lookupOutcome(entries: readonly OutcomeEntry[], task: string, run: string, model: string): Outcome | undefined {
  const forTask = entries.filter((e) => e.task === task);
  return (
    forTask.find((e) => e.run === run && (e.model === undefined || e.model === model)) ??
    forTask.find((e) => e.run === undefined && e.model === model) ??
    forTask.find((e) => e.run === undefined && e.model === undefined)
  )?.outcome;
}
