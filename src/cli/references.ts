/** Choosing the reference a CLI score runs against: a PTA file, or the prior pooled from bundled references. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { priorFromPtas } from '../core/prior.js';
import type { Pta, Reference } from '../core/scorer-api.js';
import { bundledReferencesDir } from '../package-files.js';
import { SteplensError } from '../errors.js';
import { readPta } from './input.js';

/** Loads every PTA JSON file of a directory; a missing or empty one is an error (a prior of nothing scores nothing). */
export async function loadPtaDir(dir: string): Promise<Pta[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    throw new SteplensError('bad_input', `cannot read the reference folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  if (names.length === 0) throw new SteplensError('bad_input', `the reference folder ${dir} holds no PTA (*.json)`);
  return Promise.all(names.map((n) => readPta(join(dir, n))));
}

/** The reference for `score`: the given PTA, else the prior pooled from `priorDir` (default: bundled examples). */
export async function chooseReference(ptaFile: string | undefined, priorDir?: string): Promise<Reference> {
  if (ptaFile !== undefined) return { kind: 'pta', pta: await readPta(ptaFile) };
  const ptas = await loadPtaDir(priorDir ?? bundledReferencesDir());
  return { kind: 'prior', prior: priorFromPtas(ptas) };
}
