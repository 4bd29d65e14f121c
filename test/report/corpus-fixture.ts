/** Builds the report of the shared corpus once per test file. */
import { readFileSync } from 'node:fs';
import { parseLogText } from '../../src/formats/index.js';
import { buildReport } from '../../src/report/build-report.js';
import { discover } from '../../src/report/discover.js';
import { nodeReportFs } from '../../src/report/node-fs.js';
import type { CorpusReport } from '../../src/report/types.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { CORPUS_DIR } from '../fixtures/corpus.js';

export const CORPUS = `${CORPUS_DIR}/`;

export function corpusReport(paths: string[] = [CORPUS]): CorpusReport {
  const found = discover(nodeReportFs, paths, (text, source) => parseLogText(text, 'auto', source));
  return buildReport(found, { fs: nodeReportFs, analyzers: defaultAnalyzers(), paths });
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
