/**
 * The line scan (src/core/evidence/output-lines.ts) only skips readers that could not
 * find anything: on every command output of the real corpus runs and on every real
 * fixture, each runner parser and the error reader give the same answer gated by the
 * scan as run on every text.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorKind } from '../../src/core/evidence/errors.js';
import { LINE } from '../../src/core/evidence/line-shapes.js';
import { scanOutput } from '../../src/core/evidence/output-lines.js';
import { OUTPUT_WINDOW } from '../../src/core/evidence/step-evidence.js';
import { parseTestRun, RUNNER_PARSERS } from '../../src/core/evidence/test-results.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { LINE_SHAPES } from './line-shape-table.js';

const ALL = Object.values(LINE).reduce((a, b) => a | b, 0);
const dir = new URL('../fixtures/evidence/', import.meta.url);
const fixtures = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), 'utf8'));
const outputs = corpusRuns().flatMap((r) =>
  r.steps.filter((s) => s.action.kind === 'shell' || s.action.kind === 'code' || s.action.kind === 'other').map((s) => (s.observation ?? '').slice(-OUTPUT_WINDOW)),
);

describe('output line scan', () => {
  it('gates no reader that would find something (corpus outputs and fixtures)', () => {
    let found = 0;
    for (const text of [...fixtures, ...outputs]) {
      const mask = scanOutput(text);
      for (const p of RUNNER_PARSERS) {
        const all = p.parse(text);
        if (all !== null) found++;
        expect((p.needs & mask) !== 0 ? p.parse(text) : null, `${p.family}: ${text.slice(-200)}`).toEqual(all);
      }
      expect(errorKind(text, mask), text.slice(-200)).toBe(errorKind(text, ALL));
    }
    expect(outputs.length).toBeGreaterThan(1000);
    expect(found).toBeGreaterThan(60);
  });

  it('flags each line shape at column 0 and indented as lineShape defines it (the first-character table skips none)', () => {
    for (const [line, col0, indented] of LINE_SHAPES) {
      expect(scanOutput(line), JSON.stringify(line)).toBe(col0);
      expect(scanOutput(`  ${line}`), JSON.stringify(`  ${line}`)).toBe(indented);
      expect(scanOutput(`x\n\t${line}\ny`), JSON.stringify(`\t${line}`)).toBe(indented);
    }
  });

  it('without compiler locations (a forecaster that reads no error): the same flags but that one, so the same test runs', () => {
    let differ = 0;
    for (const text of [...fixtures, ...outputs]) {
      const full = scanOutput(text);
      const some = scanOutput(text, false);
      expect(some & ~LINE.compile, text.slice(-200)).toBe(full & ~LINE.compile);
      if (some !== full) differ++;
      expect(parseTestRun(text, some), text.slice(-200)).toEqual(parseTestRun(text, full));
    }
    // Outputs with a compiler location only on an unindented line (grep -n, a compiler's report) exist in the corpus.
    expect(differ).toBeGreaterThan(10);
  });

  it('skips most outputs outright', () => {
    expect(outputs.filter((t) => scanOutput(t) === 0).length / outputs.length).toBeGreaterThan(0.5);
  });
});
