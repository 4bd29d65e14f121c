/**
 * unittest's and Django's test runner (`python -m unittest`, `manage.py test`,
 * `tests/runtests.py`): `Ran N tests in Xs`, then `OK` or `FAILED (failures=F, errors=E)`,
 * each with optional `skipped=`/`expected failures=`/`unexpected successes=`. Passed = N − failures − errors −
 * skipped − expected failures, and the unexpected successes of a FAILED run (Python 3.11+ fails a run on one)
 * count as failed. Several runs in one observation are summed.
 */
import { LINE } from '../line-shapes.js';
import { num, type RunnerParser, type TestRun } from './types.js';

// `Ran N tests in Xs`, a blank line, then the verdict line (Django may print `Destroying test database ...` lines between).
const RAN = /^Ran (\d+) tests? in [\d.]+s\s*\n(?:[^\n]*\n){0,6}?(OK|FAILED)\b([^\n]*)/gm;
// RAN is run by `exec` from lastIndex 0 until null (which resets it): `matchAll` copies the pattern each call.
const FAILURES = /(?<!expected )failures=(\d+)/;
const ERRORS = /errors=(\d+)/;
const SKIPPED = /skipped=(\d+)/;
const EXPECTED_FAILURES = /expected failures=(\d+)/;
const UNEXPECTED = /unexpected successes=(\d+)/;

export const unittestParser: RunnerParser = {
  family: 'unittest',
  needs: LINE.unittest,
  parse(text) {
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    RAN.lastIndex = 0;
    for (let m = RAN.exec(text); m !== null; m = RAN.exec(text)) {
      found = true;
      const rest = m[3]!;
      // Not the `expected failures=` that follow (they counted as failures too).
      const failures = num(FAILURES.exec(rest)?.[1]);
      const errors = num(ERRORS.exec(rest)?.[1]);
      const skipped = num(SKIPPED.exec(rest)?.[1]) + num(EXPECTED_FAILURES.exec(rest)?.[1]);
      // Before 3.11 an unexpected success left the run `OK (unexpected successes=1)`: a pass, as printed.
      const unexpected = m[2] === 'FAILED' ? num(UNEXPECTED.exec(rest)?.[1]) : 0;
      run.failed += failures + unexpected;
      run.errors += errors;
      run.passed += Math.max(0, num(m[1]) - failures - errors - skipped - unexpected);
    }
    return found ? run : null;
  },
};
