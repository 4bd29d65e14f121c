/**
 * `--manifest FILE`: JSON Lines, one run per line with `file` (relative to the
 * manifest's folder), and any of `task`, `agent`, `model`, `resolved` (bool).
 * It names the agent and model (a run's source) where the log does not, e.g.
 * SWE-agent 0.x logs, which hold no model name, and gives the outcome
 * (../shared/calibration/manifest.jsonl has this shape). `run-naming.ts`
 * applies it the same way for every command.
 */
import { dirname, resolve } from 'node:path';
import { SteplensError } from '../errors.js';

export interface ManifestEntry {
  task?: string;
  agent?: string;
  model?: string;
  passed?: boolean;
}

/** Parses a manifest into absolute file path → entry; one-line errors name the line. */
export function parseManifest(text: string, path: string): Map<string, ManifestEntry> {
  const base = dirname(path);
  const out = new Map<string, ManifestEntry>();
  const lines = new Map<string, number>();
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      throw new SteplensError('bad_input', `${path}:${i + 1}: not a JSON object`);
    }
    if (typeof rec !== 'object' || rec === null || typeof (rec as { file?: unknown }).file !== 'string') {
      throw new SteplensError('bad_input', `${path}:${i + 1}: each line needs a "file" string`);
    }
    const r = rec as { file: string; task?: unknown; agent?: unknown; model?: unknown; resolved?: unknown };
    const task = str(r.task);
    const agent = str(r.agent);
    const model = str(r.model);
    const file = resolve(base, r.file);
    const entry: ManifestEntry = {
      ...(task !== undefined ? { task } : {}),
      ...(agent !== undefined ? { agent } : {}),
      ...(model !== undefined ? { model } : {}),
      ...(typeof r.resolved === 'boolean' ? { passed: r.resolved } : {}),
    };
    // Two rows that disagree on one file: which is right cannot be guessed (the later one silently won).
    const before = out.get(file);
    if (before !== undefined && JSON.stringify(before) !== JSON.stringify(entry)) {
      throw new SteplensError('bad_input', `${path}:${i + 1}: a second row for ${r.file} (first on line ${lines.get(file)}) that says otherwise`);
    }
    if (before === undefined) lines.set(file, i + 1);
    out.set(file, entry);
  });
  return out;
}
