/**
 * The runner parsers (src/core/evidence/runners) on real output: each fixture in
 * test/fixtures/evidence is a real observation from a corpus or calibration run, or real
 * output of the runner on this machine where no run in our data used it (sources in
 * test/fixtures/README.md). For each: which families read it (no other), the merged
 * counts and build status, and the verdict. Every family has at least one fixture.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TestRun } from '../../src/core/evidence/runners/types.js';
import { parseTestRun, RUNNER_PARSERS, verdictOf } from '../../src/core/evidence/test-results.js';

const read = (name: string) => readFileSync(new URL(`../fixtures/evidence/${name}.txt`, import.meta.url), 'utf8');
const run = (passed: number, failed: number, errors: number, build?: TestRun['build']): TestRun => ({ passed, failed, errors, ...(build ? { build } : {}) });

/** fixture → families that read it, merged result, verdict. Counts read off the text by hand (pytest-progress-only: 82 dots, 1 F, 3 s). */
const CASES: ReadonlyArray<[string, string[], TestRun | null, 'pass' | 'fail' | null]> = [
  ['pytest-framed-summary', ['pytest'], run(64, 1, 0), 'fail'],
  ['pytest-quiet-summary', ['pytest'], run(600, 0, 0), 'pass'],
  ['pytest-old-seconds', ['pytest'], run(1, 0, 0), 'pass'],
  ['pytest-collection-errors', ['pytest'], run(0, 0, 3), 'fail'],
  ['pytest-colour', ['pytest'], run(9, 0, 0), 'pass'],
  ['pytest-progress-only', ['pytest'], run(82, 1, 0), 'fail'],
  ['unittest-failed', ['unittest'], run(0, 1, 1), 'fail'],
  ['unittest-ok', ['unittest'], run(2, 0, 0), 'pass'],
  ['unittest-no-tests', ['unittest'], run(0, 0, 0), null],
  ['unittest-unexpected-success', ['unittest'], run(1, 1, 0), 'fail'], // Ran 2, FAILED (unexpected successes=1)
  ['unittest-expected-failure', ['unittest'], run(1, 0, 0), 'pass'], // Ran 2, OK (expected failures=1)
  ['django-ok', ['unittest'], run(410, 0, 0), 'pass'], // Ran 444, skipped=34
  ['django-failed-errors', ['unittest'], run(0, 0, 1), 'fail'],
  ['django-mixed', ['unittest'], run(65, 1, 3), 'fail'], // Ran 69, failures=1, errors=3
  ['tox-fail', ['pytest', 'tox'], run(1, 1, 0, 'failure'), 'fail'],
  ['tox-pass', ['pytest', 'tox'], run(1, 0, 0, 'success'), 'pass'],
  ['nox-fail', ['pytest', 'tox'], run(1, 1, 0, 'failure'), 'fail'],
  ['nox-pass', ['pytest', 'tox'], run(1, 0, 0, 'success'), 'pass'],
  ['mvn-fail', ['junit'], run(1, 1, 0, 'failure'), 'fail'],
  ['mvn-pass', ['junit'], run(1, 0, 0, 'success'), 'pass'],
  ['jest-fail', ['js'], run(1, 1, 0), 'fail'],
  ['jest-pass', ['js'], run(1, 0, 0), 'pass'], // `1 skipped, 1 passed`
  ['mocha-fail', ['js'], run(1, 1, 0), 'fail'],
  ['mocha-pass', ['js'], run(1, 0, 0), 'pass'],
  ['node-fail', ['js'], run(1, 1, 0), 'fail'],
  ['go-pass', ['go'], run(1, 0, 0), 'pass'], // one `ok` package, no test named
  ['go-fail', ['go'], run(0, 1, 0), 'fail'], // only the failing test is named
  ['go-fail-v', ['go'], run(1, 1, 0), 'fail'],
  ['go-build-fail', ['go'], run(0, 0, 1, 'failure'), 'fail'],
  ['cargo-pass', ['cargo'], run(1, 0, 0), 'pass'],
  ['cargo-fail', ['cargo'], run(1, 1, 0), 'fail'],
  ['cargo-build-fail', ['cargo'], run(0, 0, 1, 'failure'), 'fail'],
  ['python-traceback', [], null, null],
  ['python-syntax-error', [], null, null],
];

describe('runner parsers on real output', () => {
  it.each(CASES)('%s', (name, families, expected, verdict) => {
    const text = read(name);
    expect(RUNNER_PARSERS.filter((p) => p.parse(text) !== null).map((p) => p.family)).toEqual(families);
    const got = parseTestRun(text);
    expect(got).toEqual(expected);
    expect(got === null ? null : verdictOf(got)).toBe(verdict);
  });

  it('pytest-subtests: failing subtests fail the run, even when every test passed', () => {
    // The plugin's summary words (`N subtests failed`, `N subtests passed`); no run in our data used it, and it
    // is not installable offline, so these lines are written by hand after its format.
    expect(parseTestRun('==================== 1 failed, 3 subtests failed, 2 subtests passed in 0.05s ====================\n')).toEqual(run(0, 4, 0));
    expect(parseTestRun('2 subtests failed, 1 passed, 5 subtests passed in 0.12s\n')).toEqual(run(1, 2, 0));
    expect(verdictOf(run(1, 2, 0))).toBe('fail');
  });

  it('every runner family has a real fixture it reads', () => {
    const covered = new Set(CASES.flatMap(([, families]) => families));
    expect([...covered].sort()).toEqual(RUNNER_PARSERS.map((p) => p.family).sort());
  });

  it('reads nothing in text without a summary, and the same text twice counts twice', () => {
    expect(parseTestRun('')).toBeNull();
    expect(parseTestRun(read('python-traceback'))).toBeNull();
    const twice = `${read('pytest-framed-summary')}\n${read('pytest-framed-summary')}`;
    expect(parseTestRun(twice)).toEqual(run(128, 2, 0));
  });
});
