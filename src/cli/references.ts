/** Choosing the reference a CLI score runs against: a PTA file, or the prior pooled from bundled references. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { priorFromPtas } from '../core/prior.js';
import type { Pta, Reference } from '../core/scorer-api.js';
import { exampleReferencesDir } from './package-root.js';
import { readPta } from './input.js';

/** Loads every PTA JSON file of a directory (missing directory: none). */
export async function loadPtaDir(dir: string): Promise<Pta[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch {
    return [];
  }
  return Promise.all(names.map((n) => readPta(join(dir, n))));
}

/** The reference for `score`: the given PTA, else the prior pooled from `priorDir` (default: bundled examples). */
export async function chooseReference(ptaFile: string | undefined, priorDir?: string): Promise<Reference> {
  if (ptaFile !== undefined) return { kind: 'pta', pta: await readPta(ptaFile) };
  const ptas = await loadPtaDir(priorDir ?? exampleReferencesDir());
  return { kind: 'prior', prior: priorFromPtas(ptas) };
}
