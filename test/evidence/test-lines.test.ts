/**
 * The test readers' own line scan (src/core/evidence/test-lines.ts) gives what the full scan gives them: its
 * TEST_LINES flags and the start of the first pytest summary line, on every corpus output and fixture, on each of
 * their lines alone, indented, cut and between others, and on each shape at column 0 and after blanks; and so a step's
 * evidence read for a model without error features is the one read with the full scan.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TEST_LINES } from '../../src/core/evidence/line-shapes.js';
import { scanOutput, type ScanAt } from '../../src/core/evidence/output-lines.js';
import { emptyStepEvidence, OUTPUT_WINDOW, READ, stepEvidence } from '../../src/core/evidence/step-evidence.js';
import { scanTestLines } from '../../src/core/evidence/test-lines.js';
import { createStateBuilder } from '../../src/core/state-builder.js';
import { defaultAnalyzers } from '../../src/syntax/index.js';
import { corpusRuns } from '../fixtures/corpus-runs.js';
import { LINE_SHAPES } from './line-shape-table.js';

const dir = new URL('../fixtures/evidence/', import.meta.url);
const fixtures = readdirSync(dir).map((f) => readFileSync(new URL(f, dir), 'utf8'));
const runs = corpusRuns();
const analyzers = defaultAnalyzers();
const outputs = runs.flatMap((r) => r.steps.filter((s) => s.action.kind === 'shell' || s.action.kind === 'code' || s.action.kind === 'other').map((s) => (s.observation ?? '').slice(-OUTPUT_WINDOW)));

/** Both scans of `text`: [full scan's test flags, its summary start, test scan's flags, its summary start]. */
function both(text: string): [number, number, number, number] {
  const a: ScanAt = { pytestSummary: -1 };
  const b: ScanAt = { pytestSummary: -2 };
  const full = scanOutput(text, false, a) & TEST_LINES;
  const tests = scanTestLines(text, b);
  return [full, a.pytestSummary, tests, b.pytestSummary];
}

const expectSame = (text: string) => {
  const [full, fullAt, tests, testsAt] = both(text);
  expect([tests, testsAt], JSON.stringify(text.slice(0, 300))).toEqual([full, fullAt]);
};

describe('test-line scan', () => {
  it('gives the full scan test flags and summary start on every corpus output and fixture, and on each of their lines', () => {
    const texts = [...fixtures, ...outputs];
    const lines = [...new Set(texts.flatMap((t) => t.split('\n')))];
    let flagged = 0;
    for (const text of texts) {
      expectSame(text);
      if (both(text)[0] !== 0) flagged++;
    }
    lines.forEach((line, i) => {
      for (const v of [line, `  ${line}`, `\t${line}`, line.slice(1), line.slice(0, -1), `x\n${line}\n${lines[(i + 1) % lines.length]}`, `    ${line}\r\n`]) expectSame(v);
    });
    expect(outputs.length).toBeGreaterThan(1000);
    expect(flagged).toBeGreaterThan(60);
  });

  it('flags each test shape at column 0 and indented, and none of the error shapes', () => {
    for (const [line, col0, indented] of LINE_SHAPES) {
      expect(scanTestLines(line), JSON.stringify(line)).toBe(col0 & TEST_LINES);
      expect(scanTestLines(`  ${line}`), JSON.stringify(`  ${line}`)).toBe(indented & TEST_LINES);
      expect(scanTestLines(`x\n\t${line}\ny`), JSON.stringify(`\t${line}`)).toBe(indented & TEST_LINES);
      expectSame(line);
      expectSame(`  ${line}`);
    }
  });

  it('says where the first summary line starts, the text length when none', () => {
    const at: ScanAt = { pytestSummary: -1 };
    const text = 'collected 3 items\n..F  [100%]\n=== 1 failed, 2 passed in 0.1s ===\n2 passed in 0.1s\n';
    scanTestLines(text, at);
    expect(at.pytestSummary).toBe(text.indexOf('==='));
    scanTestLines('..F  [100%]\n', at);
    expect(at.pytestSummary).toBe(12);
  });

  it('leaves every step evidence the same for a model that reads the test evidence only', () => {
    // The test scan is taken when no error evidence is read; with the error readers the full scan is (step-evidence.ts).
    let runsSeen = 0;
    let summaries = 0;
    for (const r of runs) {
      const builder = createStateBuilder(analyzers);
      for (const step of r.steps) {
        const { label, state } = builder.next(step);
        const tests = stepEvidence(step, state, label, READ.tests, emptyStepEvidence());
        const full = stepEvidence(step, state, label, READ.tests | READ.errors, emptyStepEvidence());
        expect([tests.testRun, tests.run], (step.observation ?? '').slice(-200)).toEqual([full.testRun, full.run]);
        if (tests.run !== undefined) runsSeen++;
        if (tests.testRun !== null) summaries++;
      }
    }
    expect(runsSeen).toBeGreaterThan(100);
    expect(summaries).toBeGreaterThan(30);
  });
});
