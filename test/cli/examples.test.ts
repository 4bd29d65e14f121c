import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildExamplePtas, ptaFileName } from '../../src/cli/build-examples.js';
import { bundledReferencesDir } from '../../src/package-files.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';
import { ptaToJson } from '../../src/core/pta/index.js';

describe('bundled example references', () => {
  it('are exactly what the current code builds from their real corpus sources (rebuild: npm run build-examples)', async () => {
    const ptas = await buildExamplePtas(CORPUS_DIR);
    expect(ptas.length).toBeGreaterThanOrEqual(4);
    for (const pta of ptas) {
      expect(pta.references.length).toBeGreaterThanOrEqual(2);
      const bundled = readFileSync(join(bundledReferencesDir(), ptaFileName(pta.task)), 'utf8');
      expect(bundled, `${pta.task} is stale`).toBe(ptaToJson(pta));
    }
  });
});
