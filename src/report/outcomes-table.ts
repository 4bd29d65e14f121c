/**
 * The `--outcomes FILE` table: CSV (header with `task`, `outcome` and
 * optionally `run`, `model`, `agent`) or JSON Lines objects with the same keys
 * (`instance_id` is accepted for `task`, `resolved: bool` for `outcome`).
 * A row that names a model or agent names the runs it matches (`run-naming.ts`).
 */
import { SteplensError, err, ok, type Result } from '../errors.js';
import { parseRecordTable } from './record-table.js';
import type { Outcome } from './types.js';

export interface OutcomeEntry {
  task: string;
  run?: string;
  model?: string;
  agent?: string;
  outcome: Outcome;
}

const WORDS: Record<string, Outcome> = {
  pass: 'pass',
  passed: 'pass',
  resolved: 'pass',
  true: 'pass',
  '1': 'pass',
  yes: 'pass',
  fail: 'fail',
  failed: 'fail',
  unresolved: 'fail',
  false: 'fail',
  '0': 'fail',
  no: 'fail',
  censored: 'censored',
  error: 'censored',
  unknown: 'unknown',
  '': 'unknown',
};

function outcomeWord(v: unknown): Outcome | undefined {
  if (typeof v === 'boolean') return v ? 'pass' : 'fail';
  // A word or 1/0 (an object names no outcome); own keys only, so `constructor` is no outcome either.
  const word = v === undefined || v === null ? '' : typeof v === 'string' || typeof v === 'number' ? String(v).trim().toLowerCase() : undefined;
  return word !== undefined && Object.hasOwn(WORDS, word) ? WORDS[word] : undefined;
}

function entry(rec: Record<string, unknown>, where: string): Result<OutcomeEntry> {
  const task = rec.task ?? rec.instance_id;
  if (typeof task !== 'string' || task === '') return err(new SteplensError('bad_input', `${where}: missing task`));
  // A row cut short (a CSV row with fewer cells than the header, a JSON line without the key) names no outcome: not `unknown`.
  if (!Object.hasOwn(rec, 'outcome') && !Object.hasOwn(rec, 'resolved')) return err(new SteplensError('bad_input', `${where}: no outcome (the row ends before its outcome column)`));
  const outcome = outcomeWord(rec.outcome ?? rec.resolved);
  if (outcome === undefined) return err(new SteplensError('bad_input', `${where}: outcome '${String(rec.outcome ?? rec.resolved)}' is not one of pass, fail, censored, unknown`));
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const run = str(rec.run);
  const model = str(rec.model);
  const agent = str(rec.agent);
  return ok({ task, outcome, ...(run ? { run } : {}), ...(model ? { model } : {}), ...(agent ? { agent } : {}) });
}

/** Parses an outcomes table; `name` (the file name) is used in error messages. */
export function parseOutcomesTable(text: string, name: string): Result<OutcomeEntry[]> {
  return parseRecordTable(
    text,
    name,
    (h) => {
      if (!h.includes('task') && !h.includes('instance_id')) return "expected a CSV header with 'task' and 'outcome' columns, or JSON Lines";
      return h.includes('outcome') || h.includes('resolved') ? undefined : "CSV header has no 'outcome' column";
    },
    entry,
    // Two rows for one run (task, run, model, agent) that disagree: refused, as --manifest refuses them.
    (e) =>
      [`task ${e.task}`, ...(e.run !== undefined ? [`run ${e.run}`] : []), ...(e.model !== undefined ? [`model ${e.model}`] : []), ...(e.agent !== undefined ? [`agent ${e.agent}`] : [])].join(', '),
  );
}

/**
 * Looks a trajectory up in the table, most specific row first (two rows at one level for one run cannot disagree: the
 * parse refuses them): task and run (and the model, when
 * both the row and the log name one), then task and model (rows without a run), then a row that
 * names neither run nor model. A log that names no model (`model` null) matches rows on task and
 * run whatever model they name.
 */
export function lookupOutcomeEntry(entries: readonly OutcomeEntry[], task: string, run: string, model: string | null): OutcomeEntry | undefined {
  const forTask = entries.filter((e) => e.task === task);
  return (
    forTask.find((e) => e.run === run && (e.model === undefined || model === null || e.model === model)) ??
    forTask.find((e) => e.run === undefined && model !== null && e.model === model) ??
    forTask.find((e) => e.run === undefined && e.model === undefined)
  );
}

/** The outcome of the row {@link lookupOutcomeEntry} finds. */
export function lookupOutcome(entries: readonly OutcomeEntry[], task: string, run: string, model: string | null): Outcome | undefined {
  return lookupOutcomeEntry(entries, task, run, model)?.outcome;
}
