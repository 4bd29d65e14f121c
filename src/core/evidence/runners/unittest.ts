/**
 * unittest's and Django's test runner (`python -m unittest`, `manage.py test`,
 * `tests/runtests.py`): `Ran N tests in Xs`, then `OK` or `FAILED (failures=F, errors=E)`,
 * each with optional `skipped=`/`expected failures=`/`unexpected successes=`. Passed = N − failures − errors −
 * skipped − expected failures, and the unexpected successes of a FAILED run (Python 3.11+ fails a run on one)
 * count as failed. Several runs in one observation are summed.
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
      // Not the `expected failures=` that follow (they counted as failures too).
      const failures = num(/(?<!expected )failures=(\d+)/.exec(rest)?.[1]);
      const errors = num(/errors=(\d+)/.exec(rest)?.[1]);
      const skipped = num(/skipped=(\d+)/.exec(rest)?.[1]) + num(/expected failures=(\d+)/.exec(rest)?.[1]);
      // Before 3.11 an unexpected success left the run `OK (unexpected successes=1)`: a pass, as printed.
      const unexpected = m[2] === 'FAILED' ? num(/unexpected successes=(\d+)/.exec(rest)?.[1]) : 0;
      run.failed += failures + unexpected;
      run.errors += errors;
      run.passed += Math.max(0, num(m[1]) - failures - errors - skipped - unexpected);
    }
    return found ? run : null;
  },
};
