/**
 * Test results read from one observation: every runner family's parser (runners/),
 * merged. Counts add up (a wrapper such as tox prints no counts of its own, so nothing
 * is counted twice); a failed build anywhere makes the build failed.
 */
import { scanOutput } from './output-lines.js';
import { cargoParser } from './runners/cargo.js';
import { goParser } from './runners/go.js';
import { jsParser } from './runners/js.js';
import { junitParser } from './runners/junit.js';
import { pytestParser } from './runners/pytest.js';
import { toxParser } from './runners/tox.js';
import type { RunnerParser, TestRun } from './runners/types.js';
import { unittestParser } from './runners/unittest.js';

/** One parser per runner family (the conformance of each is in test/evidence/runners.test.ts). */
export const RUNNER_PARSERS: readonly RunnerParser[] = [pytestParser, unittestParser, toxParser, junitParser, jsParser, goParser, cargoParser];

/** What a run's output says of it: failed (a failure, an error or a failed build), passed (tests passed, or the build succeeded), or null (no test ran). */
export type Verdict = 'pass' | 'fail';

/**
 * The merged test results of an observation, null when no runner's summary is in it (`mask`: its {@link scanOutput},
 * when already computed; `pytestSummary`: where that scan saw the first pytest summary line, `ScanAt`).
 */
export function parseTestRun(text: string, mask = scanOutput(text), pytestSummary = 0): TestRun | null {
  let out: TestRun | null = null;
  for (const p of RUNNER_PARSERS) {
    if ((p.needs & mask) === 0) continue;
    const r = p === pytestParser ? p.parse(text, pytestSummary) : p.parse(text);
    if (r === null) continue;
    out ??= { passed: 0, failed: 0, errors: 0 };
    out.passed += r.passed;
    out.failed += r.failed;
    out.errors += r.errors;
    if (r.build === 'failure' || (r.build === 'success' && out.build === undefined)) out.build = r.build;
  }
  return out;
}

/** The verdict of a parsed run: fail on any failure, error or failed build; pass on passed tests or a successful build; else null. */
export function verdictOf(run: TestRun): Verdict | null {
  if (run.failed + run.errors > 0 || run.build === 'failure') return 'fail';
  if (run.passed > 0 || run.build === 'success') return 'pass';
  return null;
}
