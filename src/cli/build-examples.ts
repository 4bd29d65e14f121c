/**
 * Builds the bundled example references (`data/example/<task>.json`) from the
 * real corpus trajectories listed in `data/example-sources.json`, and the prior pooled from
 * them (`data/example-prior.json`, what `score` reads reference-free).
 * Run: `npm run build-examples [-- CORPUS_DIR]` (default: the corpus the tests use, test/.corpus/corpus, which the
 * npm script unpacks from test/fixtures/corpus.tar.br first: bench/unpack-corpus.ts).
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildPta } from '../core/pta/index.js';
import type { Pta } from '../core/scorer-api.js';
import { labelSteps } from '../core/state-builder.js';
import { defaultAnalyzers } from '../syntax/index.js';
import { bundledPriorFile, bundledReferencesDir, packageRoot } from '../package-files.js';
import { readTrajectory } from './input.js';

interface Sources {
  tasks: Record<string, string[]>;
}

/** Builds every example PTA in memory (does not write). */
export async function buildExamplePtas(corpusDir: string): Promise<Pta[]> {
  const sources = JSON.parse(await readFile(join(packageRoot(), 'data', 'example-sources.json'), 'utf8')) as Sources;
  const analyzers = defaultAnalyzers();
  const out: Pta[] = [];
  for (const [task, files] of Object.entries(sources.tasks)) {
    const refs = [];
    for (const file of files) {
      const parsed = await readTrajectory(join(corpusDir, file), 'auto');
      refs.push(labelSteps(parsed.steps, analyzers).map((x) => x.state));
    }
    out.push(buildPta(task, refs));
  }
  return out;
}

/** File name of a task's PTA in a reference directory. */
export const ptaFileName = (task: string) => `${task.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;

const invokedDirectly = process.argv[1]?.endsWith('build-examples.js');
if (invokedDirectly) {
  const { writeFile } = await import('node:fs/promises');
  const { ptaToJson } = await import('../core/pta/index.js');
  const { priorFromPtas } = await import('../core/prior.js');
  const ptas = await buildExamplePtas(resolve(process.argv[2] ?? join(packageRoot(), 'test', '.corpus', 'corpus')));
  for (const pta of ptas) {
    const file = join(bundledReferencesDir(), ptaFileName(pta.task));
    await writeFile(file, ptaToJson(pta));
    process.stdout.write(`wrote ${file} (${pta.nodes.length - 1} nodes, k=${pta.references.length})\n`);
  }
  // The pooled prior `score` reads instead of the PTAs (src/cli/references.ts bundledPrior).
  await writeFile(bundledPriorFile(), `${JSON.stringify(priorFromPtas(ptas))}\n`);
  process.stdout.write(`wrote ${bundledPriorFile()}\n`);
}
