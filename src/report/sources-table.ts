/**
 * The `--sources FILE` table of `steplens calibrate`: which agent and model
 * produced the runs of each run folder, for logs that do not say (SWE-agent
 * 0.x names no model). CSV with a header holding `run`, `agent`, `model`, or
 * JSON Lines objects with those keys. A run a row names gets that agent
 * and/or model; others keep what their log or path says.
 */
import { SteplensError, err, ok, type Result } from '../errors.js';
import { splitCsvLine } from './outcomes-table.js';

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
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const out: SourceEntry[] = [];
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
  if (!header.includes('run')) return err(new SteplensError('bad_input', `${name}: expected a CSV header with 'run' and 'agent' and/or 'model' columns, or JSON Lines`));
  for (const [i, line] of lines.slice(1).entries()) {
    const cells = splitCsvLine(line);
    const e = entry(Object.fromEntries(header.map((h, j) => [h, cells[j] ?? ''])), `${name} line ${i + 2}`);
    if (!e.ok) return e;
    out.push(e.value);
  }
  return ok(out);
}

/** The agent and model of a run named `run`, as the table overrides them. */
export function sourceOf(entries: readonly SourceEntry[], run: string, agent: string, model: string): { agent: string; model: string } {
  const e = entries.find((x) => x.run === run);
  return { agent: e?.agent ?? agent, model: e?.model ?? model };
}
