/** Builds the report of the shared corpus once per test file. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { priorFromPtas } from '../../src/core/prior.js';
import { ptaFromJson } from '../../src/core/pta/index.js';
import type { TemporalPrior } from '../../src/core/scorer-api.js';
import { bundledReferencesDir } from '../../src/package-files.js';
import { parseLogText } from '../../src/formats/index.js';
import { buildReport, type BuildReportOptions } from '../../src/report/build-report.js';
import { discover } from '../../src/report/discover.js';
import { nodeReportFs } from '../../src/report/node-fs.js';
import type { CorpusReport } from '../../src/report/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

export const CORPUS = `${CORPUS_DIR}/`;

/** The report as `steplens report` builds it (reference-free runs against the bundled prior). */
export function corpusReport(paths: string[] = [CORPUS], options: Partial<BuildReportOptions> = {}): CorpusReport {
  const found = discover(nodeReportFs, paths, (text, source) => parseLogText(text, 'auto', source));
  return buildReport(found, { fs: nodeReportFs, analyzers: defaultAnalyzers(), paths, prior: bundledPrior(), ...options });
}

/** The prior `report`, `score` and the server use without a PTA: pooled from the bundled references. */
export function bundledPrior(): TemporalPrior {
  const dir = bundledReferencesDir();
  const ptas = readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .map((n) => {
      const p = ptaFromJson(JSON.parse(readFileSync(join(dir, n), 'utf8')));
      if (!p.ok) throw new Error(`${n}: ${p.error}`);
      return p.value;
    });
  return priorFromPtas(ptas);
}

export type SourceOutcome = 'pass' | 'fail' | 'unknown' | 'no-patch' | 'unofficial';

/** The per-trajectory table of SOURCES.md: local path → outcome as the table states it. */
export function sourcesOutcomes(): Map<string, SourceOutcome> {
  const text = readFileSync(`${CORPUS}SOURCES.md`, 'utf8');
  const out = new Map<string, SourceOutcome>();
  for (const line of text.split('\n')) {
    const m = /^\| \d+ \| `([^`]+)` \|(.*)$/.exec(line);
    if (!m) continue;
    const cells = m[2]!.split(' | ');
    const outcome = cells.find((c) => /\*\*(RESOLVED|NOT resolved|UNKNOWN)/.test(c)) ?? '';
    const o: SourceOutcome = outcome.includes('no patch')
      ? 'no-patch'
      : outcome.includes('unofficial')
        ? 'unofficial'
        : outcome.includes('**RESOLVED**')
          ? 'pass'
          : outcome.includes('NOT resolved')
            ? 'fail'
            : 'unknown';
    out.set(m[1]!, o);
  }
  return out;
}
