/**
 * unittest's and Django's test runner (`python -m unittest`, `manage.py test`,
 * `tests/runtests.py`): `Ran N tests in Xs`, then `OK` or `FAILED (failures=F, errors=E)`,
 * each with optional `skipped=`/`expected failures=`. Passed = N − failures − errors −
 * skipped − expected failures. Several runs in one observation are summed.
 */
import { LINE } from '../output-lines.js';
import { num, type RunnerParser, type TestRun } from './types.js';

// `Ran N tests in Xs`, a blank line, then the verdict line (Django may print `Destroying test database ...` lines between).
const RAN = /^Ran (\d+) tests? in [\d.]+s\s*\n(?:[^\n]*\n){0,6}?(OK|FAILED)\b([^\n]*)/gm;

export const unittestParser: RunnerParser = {
  family: 'unittest',
  needs: LINE.unittest,
  parse(text) {
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    for (const m of text.matchAll(RAN)) {
      found = true;
      const rest = m[3]!;
      const failures = num(/failures=(\d+)/.exec(rest)?.[1]);
      const errors = num(/errors=(\d+)/.exec(rest)?.[1]);
      const skipped = num(/skipped=(\d+)/.exec(rest)?.[1]) + num(/expected failures=(\d+)/.exec(rest)?.[1]);
      run.failed += failures;
      run.errors += errors;
      run.passed += Math.max(0, num(m[1]) - failures - errors - skipped);
    }
    return found ? run : null;
  },
};
