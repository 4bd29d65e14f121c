/**
 * Runs left `unknown` while an evaluation file under PATH names their task. Discovery skips evaluation files as
 * metadata and outcomes are read only from the layouts resolve-outcome.ts knows, so a file in another layout (an
 * agent's own `final_report.json`, a summary under another name) left its runs unknown without a word: the
 * calibration set's 721 SWE-agent 0.x runs read `unknown` beside the `final_report.json` that resolves them. The
 * outcome is not guessed from such a file (which run it evaluated cannot be told from its place); the user is told.
 */
import { basename, dirname } from 'node:path';
import type { ReportFs } from './fs-port.js';
import { outcomesFromDoc } from './outcome-docs.js';
import type { Outcome, SkippedFile } from './types.js';

/** A named run as the note needs it: its task and outcome. */
export interface RunOutcome {
  task: string | null;
  /** `source`: the file (or flag) the outcome was read from. */
  outcome: { outcome: Outcome; source: string };
}

function tasksOf(fs: ReportFs, path: string): string[] {
  const text = fs.readText(path);
  if (text === undefined) return [];
  try {
    return [...(outcomesFromDoc(JSON.parse(text), basename(dirname(path)))?.keys() ?? [])];
  } catch {
    return [];
  }
}

/**
 * One warning line when some runs without an outcome have their task named by an evaluation file that was skipped
 * under PATH and read for none of them, else null.
 */
export function untiedEvaluationWarning(fs: ReportFs, skipped: readonly SkippedFile[], runs: readonly RunOutcome[]): string | null {
  const unknown = runs.filter((r) => r.outcome.outcome === 'unknown' && r.task !== null);
  if (unknown.length === 0) return null;
  // A file some run's outcome was read from evaluated those runs (often another model's run of the same task): not these.
  const read = new Set(runs.map((r) => r.outcome.source));
  const files = new Map<string, string[]>();
  for (const s of skipped) {
    if (s.kind !== 'metadata' || read.has(s.path)) continue;
    for (const task of tasksOf(fs, s.path)) {
      const list = files.get(task);
      if (list) list.push(s.path);
      else files.set(task, [s.path]);
    }
  }
  const tied = unknown.filter((r) => files.has(r.task!)); // task checked non-null in `unknown`
  if (tied.length === 0) return null;
  const used = [...new Set(tied.flatMap((r) => files.get(r.task!)!))].sort();
  return (
    `warning: ${tied.length} of ${unknown.length} runs without an outcome have their task in ${used.length === 1 ? 'an evaluation file' : `${used.length} evaluation files`} ` +
    `(among the paths given) that no run's outcome was read from (e.g. ${used[0]!}; a layout or run name not tied to these logs): ` +
    `left out of pass rates and separation, not counted as failures; if it evaluated them, give --outcomes FILE or --manifest FILE (docs/your-logs.md)`
  );
}
