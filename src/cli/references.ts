/** Choosing the references CLI commands score against: a PTA file, the prior pooled from bundled references, folders of stored PTAs. */
// Synchronous reads (small files, on the start's path, nothing to overlap with): node:fs/promises brings ~10 more of
// Node's modules (readline, watchers, streams) to every `score` start (issue 24).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { priorFromPtas } from '../core/prior.js';
import type { Pta, Reference, TemporalPrior } from '../core/scorer-api.js';
import { bundledPriorFile, bundledReferencesDir } from '../package-files.js';
import { SteplensError } from '../errors.js';
import type { ExternalReference } from '../report/types.js';
import { ReferenceFolder } from '../store/reference-folder.js';
import { readPta } from './input.js';

/** Loads every PTA JSON file of a directory; a missing or empty one is an error (a prior of nothing scores nothing). */
export async function loadPtaDir(dir: string): Promise<Pta[]> {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort();
  } catch (error) {
    throw new SteplensError('bad_input', `cannot read the reference folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (names.length === 0) throw new SteplensError('bad_input', `the reference folder ${dir} holds no PTA (*.json)`);
  return Promise.all(names.map((n) => readPta(join(dir, n), { regularOnly: true })));
}

/** True for a prior's shape: three windows of four finite non-negative shares, a count of references. */
function isPrior(x: unknown): x is TemporalPrior {
  if (typeof x !== 'object' || x === null) return false;
  const { windows, references } = x as Record<string, unknown>;
  const dist = (d: unknown) => Array.isArray(d) && d.length === 4 && d.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);
  return Array.isArray(windows) && windows.length === 3 && windows.every(dist) && Number.isInteger(references) && (references as number) >= 0;
}

/**
 * The prior pooled from the bundled references: read from the file build-examples writes beside them (reading and
 * checking the four PTAs costs ~5 % of a `score` start, issue 24), else pooled from them as any folder is.
 */
export async function bundledPrior(): Promise<TemporalPrior> {
  try {
    const doc: unknown = JSON.parse(readFileSync(bundledPriorFile(), 'utf8'));
    if (isPrior(doc)) return doc;
  } catch {
    // no file (a package built before it existed) or a damaged one: pool the references themselves
  }
  return priorFromPtas(await loadPtaDir(bundledReferencesDir()));
}

/** The reference for `score`: the given PTA, else the prior pooled from `priorDir` (default: bundled examples). */
export async function chooseReference(ptaFile: string | undefined, priorDir?: string): Promise<Reference> {
  if (ptaFile !== undefined) return { kind: 'pta', pta: await readPta(ptaFile) };
  if (priorDir === undefined) return { kind: 'prior', prior: await bundledPrior() };
  return { kind: 'prior', prior: priorFromPtas(await loadPtaDir(priorDir)) };
}

/** A folder of stored PTAs given to `report`: `--references DIR` (source = DIR as given) or `--bundled`. */
export interface ReferenceFolderArg {
  source: string;
  dir: string;
}

/** The folders of `report --references DIR... [--bundled]`: each DIR in the order given, then the bundled set. */
export function referenceFolderArgs(dirs: readonly string[] | undefined, bundled: boolean, cwd: string): ReferenceFolderArg[] {
  return [...(dirs ?? []).map((d) => ({ source: d, dir: resolve(cwd, d) })), ...(bundled ? [{ source: 'bundled', dir: bundledReferencesDir() }] : [])];
}

/** Per task of `tasks`, the PTA of the first folder holding it; a folder or needed PTA that cannot be read is an error. */
export async function externalReferences(folders: readonly ReferenceFolderArg[], tasks: Iterable<string>): Promise<Map<string, ExternalReference>> {
  const opened = await Promise.all(folders.map(async (f) => ({ source: f.source, folder: await ReferenceFolder.open(f.dir) })));
  const out = new Map<string, ExternalReference>();
  for (const task of new Set(tasks)) {
    for (const { source, folder } of opened) {
      const pta = await folder.get(task);
      if (pta === undefined) continue;
      out.set(task, { pta, source });
      break;
    }
  }
  return out;
}
