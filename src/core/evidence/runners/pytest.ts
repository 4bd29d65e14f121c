/**
 * pytest's summary line, in every verbosity: `==== 1 failed, 2 passed in 0.12s ====`,
 * `-q`'s bare `600 passed, 100 skipped, 1 xfailed in 5.43s`, and collection errors
 * (`3123 deselected, 3 errors in 3.85s`). Several summaries in one observation (two
 * runs in one command) are summed.
 */
import { num, type RunnerParser, type TestRun } from './types.js';

const PART = String.raw`\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun|subtests passed)`;
// A whole line of `N word` parts separated by commas, then ` in <seconds>s`, optionally framed by `=`.
const SUMMARY = new RegExp(String.raw`^(?:=+ )?((?:${PART})(?:, ${PART})*) in [\d.]+s(?: \([^)\n]*\))?(?: =+)?\s*$`, 'gm');
const NO_TESTS = /^(?:=+ )?no tests ran in [\d.]+s(?: =+)?\s*$/m;

export const pytestParser: RunnerParser = {
  family: 'pytest',
  parse(text) {
    if (!text.includes(' in ')) return null;
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    for (const m of text.matchAll(SUMMARY)) {
      found = true;
      const parts = m[1]!;
      run.passed += num(/(\d+) passed/.exec(parts)?.[1]);
      run.failed += num(/(\d+) failed/.exec(parts)?.[1]);
      run.errors += num(/(\d+) errors?\b/.exec(parts)?.[1]);
    }
    if (!found && NO_TESTS.test(text)) return run;
    return found ? run : null;
  },
};
