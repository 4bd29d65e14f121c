/**
 * The pytest reader starts its summary pattern where the scan saw the first summary line (output-lines.ts
 * `ScanAt`) instead of at the text's start: on every command output of the corpus runs and every fixture it gives
 * what it gives read from the start (the reader without a start is that old path, kept), and so does the merge.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { scanOutput, type ScanAt } from '../../src/core/evidence/output-lines.js';
import { pytestParser, pytestSummaries } from '../../src/core/evidence/runners/pytest.js';
import { OUTPUT_WINDOW } from '../../src/core/evidence/step-evidence.js';
import { parseTestRun } from '../../src/core/evidence/test-results.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';

const dir = new URL('../fixtures/evidence/', import.meta.url);
const fixtures = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), 'utf8'));
const outputs = corpusRuns().flatMap((r) =>
  r.steps.filter((s) => s.action.kind === 'shell' || s.action.kind === 'code' || s.action.kind === 'other').map((s) => (s.observation ?? '').slice(-OUTPUT_WINDOW)),
);

/** The scan's first summary line of `text` (-1 if the scan did not say). */
function summaryAt(text: string, compile = true): number {
  const at: ScanAt = { pytestSummary: -1 };
  scanOutput(text, compile, at);
  return at.pytestSummary;
}

describe('pytest summaries read from the scan first summary line', () => {
  it('gives the answer of a read from the start on every corpus output and fixture', () => {
    let skipped = 0;
    let parsed = 0;
    for (const text of [...fixtures, ...outputs]) {
      for (const compile of [true, false]) {
        const at: ScanAt = { pytestSummary: -1 };
        const mask = scanOutput(text, compile, at);
        expect(at.pytestSummary, text.slice(0, 200)).toBeGreaterThanOrEqual(0);
        expect(at.pytestSummary).toBeLessThanOrEqual(text.length);
        const fromStart = pytestParser.parse(text);
        expect(pytestParser.parse(text, at.pytestSummary), text.slice(-200)).toEqual(fromStart);
        expect(parseTestRun(text, mask, at.pytestSummary), text.slice(-200)).toEqual(parseTestRun(text, mask));
        if (fromStart !== null) parsed++;
        if (at.pytestSummary > 0) skipped++;
      }
    }
    // Enough outputs with a summary, and most pytest outputs have text before their first summary line.
    expect(parsed).toBeGreaterThan(50);
    expect(skipped).toBeGreaterThan(parsed);
  });

  it('no summary starts before the line the scan names', () => {
    for (const text of [...fixtures, ...outputs]) {
      const from = summaryAt(text);
      if (/[\r\u2028\u2029]/.test(text.slice(0, from))) continue;
      pytestSummaries(text, (index) => expect(index, text.slice(index, index + 80)).toBeGreaterThanOrEqual(from));
    }
  });

  it('names the line a summary starts on, framed or bare, and the text length when none', () => {
    expect(summaryAt('collected 3 items\n\ntest_a.py ...  [100%]\n\n=== 3 passed in 0.01s ===\n')).toBe(42);
    expect(summaryAt('x\n1 failed, 2 passed in 0.1s\n', false)).toBe(2);
    expect(summaryAt('12 passed in 3.2s')).toBe(0);
    // Progress lines, `no tests ran`, a count of another runner and an indented count are not summary lines.
    for (const text of ['test_a.py ..F  [100%]\n', '=== no tests ran in 0.01s ===\n', '3 passing (5ms)\n', 'Tests run: 3\n', '  3 passed in 1s\n', '']) {
      expect(summaryAt(text), JSON.stringify(text)).toBe(text.length);
    }
  });

  it('reads from the start when a line break the scan does not split on comes first', () => {
    // The pattern's `^` also matches after `\r`, U+2028 and U+2029: the summary there precedes the scan's first line.
    for (const brk of ['\r', '\u2028', '\u2029']) {
      const text = `run${brk}2 passed in 1s\n3 failed in 2s\n`;
      expect(summaryAt(text)).toBe(text.indexOf('3 failed'));
      expect(pytestParser.parse(text, summaryAt(text)), JSON.stringify(brk)).toEqual({ passed: 2, failed: 3, errors: 0 });
    }
    // A break after that line changes nothing.
    expect(pytestParser.parse('x\n3 failed in 2s\r\n1 passed in 1s\n', 2)).toEqual({ passed: 1, failed: 3, errors: 0 });
    // Colour codes stripped first move every offset: read from the start.
    const coloured = 'x\n\u001b[32m1 passed\u001b[0m in 1s\n';
    expect(pytestParser.parse(coloured, coloured.length)).toEqual({ passed: 1, failed: 0, errors: 0 });
  });
});
