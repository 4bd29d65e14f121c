/**
 * JavaScript runners. jest: `Tests:       1 failed, 1 skipped, 2 passed, 4 total` (the
 * `Test Suites:` line counts files, not tests, and is not read). mocha: `N passing (Xms)`,
 * `M failing`. Node's own runner (`node --test`, TAP): `# pass N`, `# fail M`.
 */
import { LINE } from '../output-lines.js';
import { num, type RunnerParser, type TestRun } from './types.js';

// The blanks after `Tests:` are taken whole (`(?=(\s+))\1`: no split of them is retried, a shorter run never matches
// where the whole one did not), and the count before `total` is its last digit (the same end as `\d+`, without
// rescanning a run of digits from each of its positions): 16 KiB of blanks or digits after `Tests:` took 0.12-0.15 s.
export const JEST = /^Tests:(?=(\s+))\1([^\n]*\d total)/gm;
const MOCHA = /^[ \t]*(\d+) (passing|failing)\b/gm;
const TAP = /^# (pass|fail) (\d+)\s*$/gm;
// The global patterns are run by `exec` from lastIndex 0 until null (which resets it): `matchAll` copies the pattern each call.
// Tried from the start of a run of digits only, as in pytest.ts.
export const PASSED = /(?<!\d)(\d+) passed/;
export const FAILED = /(?<!\d)(\d+) failed/;

export const jsParser: RunnerParser = {
  family: 'js',
  needs: LINE.js,
  parse(text) {
    let found = false;
    const run: TestRun = { passed: 0, failed: 0, errors: 0 };
    if (text.includes('Tests:')) {
      JEST.lastIndex = 0;
      for (let m = JEST.exec(text); m !== null; m = JEST.exec(text)) {
        found = true;
        run.passed += num(PASSED.exec(m[2]!)?.[1]);
        run.failed += num(FAILED.exec(m[2]!)?.[1]);
      }
    }
    if (text.includes('passing') || text.includes('failing')) {
      MOCHA.lastIndex = 0;
      for (let m = MOCHA.exec(text); m !== null; m = MOCHA.exec(text)) {
        found = true;
        if (m[2] === 'passing') run.passed += num(m[1]);
        else run.failed += num(m[1]);
      }
    }
    if (text.includes('# pass') || text.includes('# fail')) {
      TAP.lastIndex = 0;
      for (let m = TAP.exec(text); m !== null; m = TAP.exec(text)) {
        found = true;
        if (m[1] === 'pass') run.passed += num(m[2]);
        else run.failed += num(m[2]);
      }
    }
    return found ? run : null;
  },
};
