/**
 * The `--sources FILE` table of `steplens calibrate`: which agent and model
 * produced the runs of each run folder, for logs that do not say (SWE-agent
 * 0.x names no model). CSV with a header holding `run`, `agent`, `model`, or
 * JSON Lines objects with those keys. A run a row names gets that agent
 * and/or model; others keep what their log or path says.
 */
import { SteplensError, err, ok, type Result } from '../errors.js';
import { parseRecordTable } from './record-table.js';

export interface SourceEntry {
  run: string;
  agent?: string;
  model?: string;
}

function entry(rec: Record<string, unknown>, where: string): Result<SourceEntry> {
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const run = str(rec.run);
  if (run === undefined) return err(new SteplensError('bad_input', `${where}: missing run`));
  const agent = str(rec.agent);
  const model = str(rec.model);
  if (agent === undefined && model === undefined) return err(new SteplensError('bad_input', `${where}: names neither an agent nor a model for run ${run}`));
  return ok({ run, ...(agent ? { agent } : {}), ...(model ? { model } : {}) });
}

/** Parses a sources table; `name` (the file name) is used in error messages. */
export function parseSourcesTable(text: string, name: string): Result<SourceEntry[]> {
  // Two rows for one run folder that name other agents or models: refused, as --manifest refuses two rows for one file.
  return parseRecordTable(
    text,
    name,
    (h) => (h.includes('run') ? undefined : "expected a CSV header with 'run' and 'agent' and/or 'model' columns, or JSON Lines"),
    entry,
    (e) => `run ${e.run}`,
  );
}

/** The agent and model of a run named `run`, as the table overrides them. */
export function sourceOf(entries: readonly SourceEntry[], run: string, agent: string, model: string): { agent: string; model: string } {
  const e = entries.find((x) => x.run === run);
  return { agent: e?.agent ?? agent, model: e?.model ?? model };
}
