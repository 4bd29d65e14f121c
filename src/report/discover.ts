/**
 * Input discovery: walks the given paths, keeps the files a log parser reads
 * as trajectories, and counts the rest (evaluation reports, task records,
 * unrelated JSON) as skipped, each with a reason.
 */
import { join } from 'node:path';
import { SteplensError, type Result } from '../errors.js';
import type { ParseResult } from '../formats/types.js';
import type { ReportFs } from './fs-port.js';
import { identify, type IdentityOverrides } from './identity.js';
import { isAuxiliaryDoc } from './outcome-docs.js';
import type { LoadedTrajectory } from './types.js';

/** Parses one file's text into its trajectories (several for multi-instance files). */
export type ParseFile = (text: string, source: string) => Result<ParseResult[], SteplensError>;

const EXTENSIONS = /\.(json|jsonl|traj)$/i;

export interface Discovery {
  files: number;
  trajectories: LoadedTrajectory[];
  skipped: { path: string; reason: string }[];
}

function walk(fs: ReportFs, dir: string, out: string[]): void {
  const entries = (fs.list(dir) ?? []).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.dir) walk(fs, p, out);
    else if (EXTENSIONS.test(e.name)) out.push(p);
  }
}

/** All candidate files under the inputs, in a stable order; throws bad_input for a missing path. */
export function candidateFiles(fs: ReportFs, paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const kind = fs.kind(p);
    if (kind === undefined) throw new SteplensError('bad_input', `${p}: no such file or directory`);
    if (kind === 'file') out.push(p);
    else walk(fs, p, out);
  }
  return [...new Set(out)];
}

function auxiliary(text: string): boolean {
  if (text.length > 5_000_000) return false;
  try {
    return isAuxiliaryDoc(JSON.parse(text));
  } catch {
    return false;
  }
}

/** Reads and parses every candidate file. */
export function discover(fs: ReportFs, paths: readonly string[], parse: ParseFile, overrides: IdentityOverrides = {}): Discovery {
  const files = candidateFiles(fs, paths);
  const trajectories: LoadedTrajectory[] = [];
  const skipped: Discovery['skipped'] = [];
  for (const path of files) {
    const text = fs.readText(path);
    if (text === undefined) {
      skipped.push({ path, reason: 'unreadable' });
      continue;
    }
    if (auxiliary(text)) {
      skipped.push({ path, reason: 'evaluation or task metadata' });
      continue;
    }
    const parsed = parse(text, path);
    if (!parsed.ok) {
      skipped.push({ path, reason: parsed.error.message });
      continue;
    }
    parsed.value.forEach((r, i) => {
      const id = parsed.value.length > 1 ? `${path}#${i + 1}` : path;
      trajectories.push({ id, path, format: r.format, meta: r.meta, steps: r.steps, ...identify(path, r.meta, r.format, overrides) });
    });
  }
  return { files: files.length, trajectories, skipped };
}
